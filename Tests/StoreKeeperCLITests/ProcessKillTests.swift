import Foundation
import Ledger
import LedgerTestSupport
import OrderSimulation
import PurchaseServer
import Testing

/// Real process faults: `storekeeper serve --dev` (server and emulator in one process)
/// killed with SIGKILL while players buy through it, restarted on the same database and
/// emulator state each time, then judged by the integrity oracle.
@Suite(.serialized)
struct ProcessKillTests {
    static let players = ["ana", "ben", "cai", "dee"]
    static let purchasesPerPlayer = 12
    static let kills = 3

    @Test(arguments: StoreKind.allCases)
    func sigkillMidLoadLosesNoAcknowledgedDeliveryAndDeliversNothingTwice(_ kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            database.remove()
            try? FileManager.default.removeItem(at: folder)
        }
        let server = KillableDevServer(
            databaseURL: database.url, dataFolder: folder, port: LoopbackPort.unused())
        try await server.start()
        let truth = PurchaseGroundTruth()
        var apps: [PlayerApp] = []
        for player in Self.players {
            let token = try await CommandLineRunner.run(["token", "--player", player]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            apps.append(PlayerApp(player: player, token: token, port: server.port, truth: truth))
        }
        let total = Self.players.count * Self.purchasesPerPlayer

        try await buyWhileKilling(
            apps, purchases: Self.purchasesPerPlayer, victim: server, kills: Self.kills, truth: truth)
        let (status, ledger) = try await LoopbackHTTP.requestList(port: server.port, "GET", "/emulator/v1/ledger")
        #expect(status == 200)
        #expect(await server.stop() == 0, "SIGTERM stops the last server gracefully")
        #expect(await server.kills == Self.kills)
        #expect(await truth.unanswered >= Self.kills, "each kill left requests unanswered")

        let charges = await truth.charges(fromEmulatorLedger: ledger)
        #expect(charges.count == total, "one charge per purchase: an answer lost to a kill is found, not paid again")

        let store = try database.open()
        let deliveries = try await store.deliveries(players: Self.players)
        try await store.close()
        let verdict = IntegrityOracle { ProductCatalog.sample.product($0)?.grants }
            .judge(charges: charges, ledger: deliveries)
        #expect(verdict.violations.isEmpty, "\(verdict.violations)")
        #expect(verdict.counts.delivered == total)

        let deliveredTo = Dictionary(deliveries.map { ($0.transactionId, $0.playerId) }) { first, _ in first }
        let acknowledged = await truth.acknowledged
        #expect(acknowledged.count == total)
        for (transactionId, player) in acknowledged {
            #expect(deliveredTo[transactionId] == player, "acknowledged \(transactionId) to \(player)")
        }
    }
}
