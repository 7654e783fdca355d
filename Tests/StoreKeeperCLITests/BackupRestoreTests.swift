import Foundation
import Ledger
import OrderSimulation
import PurchaseServer
import Testing

/// `storekeeper backup` of a SQLite ledger while players buy, then a restore: a server
/// started on the copy holds every delivery acknowledged before the backup began, answers
/// `already_delivered` to each of them reported again, and delivers (once) what was bought
/// after it when the devices report it again.
@Suite(.serialized)
struct BackupRestoreTests {
    static let players = ["ana", "ben"]
    static let purchasesPerPlayer = 3 + 2 + 3

    @Test func aBackupTakenWhilePlayersBuyRestoresEveryDeliveryItHeld() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = "sqlite:" + folder.appendingPathComponent("ledger.sqlite").path
        let copy = folder.appendingPathComponent("backup.sqlite").path
        let emulatorState = folder.appendingPathComponent("dev")

        let server = KillableDevServer(databaseURL: ledger, dataFolder: emulatorState, port: LoopbackPort.unused())
        try await server.start()
        let truth = PurchaseGroundTruth()
        var phones: [PlayerApp] = []
        for player in Self.players {
            let token = try await CommandLineRunner.run(["token", "--player", player]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            phones.append(PlayerApp(player: player, token: token, port: server.port, truth: truth))
        }
        let apps = phones
        /// Each player buys `count` more, all at once.
        @Sendable func buy(_ count: Int) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for app in apps { group.addTask { try await app.buy(count, productIds: ["coins100", "potion"]) } }
                try await group.waitForAll()
            }
        }
        try await buy(3)
        let acknowledgedBefore = await truth.acknowledged
        // The copy is taken while players buy; more is bought after it.
        let buying = Task { try await buy(2) }
        let backup = try await CommandLineRunner.run(["backup", "--database", ledger, "--output", copy])
        try await buying.value
        try await buy(3)
        #expect(backup.status == 0, "\(backup.stderr)")
        let summary = try backup.json()
        let again = try await CommandLineRunner.run(["backup", "--database", ledger, "--output", copy])
        #expect(again.status == 2 && again.stderr.contains("already exists"), "a backup never overwrites a file")
        #expect(await server.stop() == 0)

        let backedUp = try makeLedgerStore(url: "sqlite:" + copy)
        let held = Set(try await backedUp.deliveries(players: Self.players).map(\.transactionId))
        #expect(try await backedUp.appliedMigrations().last == (summary["schemaVersion"] as? NSNumber)?.int64Value)
        try await backedUp.close()
        #expect((summary["purchases"] as? NSNumber)?.intValue == held.count)
        #expect(Set(acknowledgedBefore.keys).isSubset(of: held), "every delivery acknowledged before the backup")
        #expect(held.count <= Self.players.count * 5, "what was bought after it is not in it")

        let restored = KillableDevServer(
            databaseURL: "sqlite:" + copy, dataFolder: emulatorState, port: LoopbackPort.unused())
        try await restored.start()
        var recoveredByServer: [String] = []
        for app in apps {
            let (status, transactions) = try await LoopbackHTTP.requestList(
                port: restored.port, "GET", "/emulator/v1/devices/\(app.player)/transactions")
            #expect(status == 200 && transactions.count == Self.purchasesPerPlayer)
            for transaction in transactions {
                let id = try #require(transaction["transactionId"] as? String)
                let jws = try #require(transaction["signedTransaction"] as? String)
                let (reported, answer) = try await LoopbackHTTP.request(
                    port: restored.port, "POST", "/v1/purchases", token: app.token,
                    body: #"{"signedTransaction":"\#(jws)"}"#)
                #expect(reported == 200)
                let answered = answer["status"] as? String
                if held.contains(id) {
                    #expect(answered == "already_delivered", "\(id) is in the backup: \(answer)")
                } else if answered == "already_delivered" {
                    // Bought after the backup, and found again by the restored server itself:
                    // its reconciler reads Apple's history from the backup's checkpoint.
                    recoveredByServer.append(id)
                } else {
                    #expect(answered == "delivered", "\(id): \(answer)")
                }
            }
        }
        let (ledgerStatus, emulatorLedger) = try await LoopbackHTTP.requestList(
            port: restored.port, "GET", "/emulator/v1/ledger")
        #expect(ledgerStatus == 200)
        #expect(await restored.stop() == 0)

        let store = try makeLedgerStore(url: "sqlite:" + copy)
        let deliveries = try await store.deliveries(players: Self.players)
        for id in recoveredByServer {
            let source = try await store.purchase(store: .appStore, transactionId: id)?.source
            #expect(
                source == .reconciler || source == .notification,
                "\(id) was delivered before the replay by \(source as Any)")
        }
        try await store.close()
        let charges = await truth.charges(fromEmulatorLedger: emulatorLedger)
        let verdict = IntegrityOracle { ProductCatalog.sample.product($0)?.grants }
            .judge(charges: charges, ledger: deliveries)
        #expect(verdict.violations.isEmpty, "\(verdict.violations)")
        #expect(verdict.counts.delivered == Self.players.count * Self.purchasesPerPlayer)
    }
}
