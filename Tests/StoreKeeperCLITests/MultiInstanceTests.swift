import Foundation
import Ledger
import LedgerTestSupport
import OrderSimulation
import PurchaseServer
import Testing

/// Several `storekeeper serve` processes on one PostgreSQL database against one standalone
/// `storekeeper emulator`: a staging deployment (the emulator's roots trusted through
/// `additionalRoots`), players spread over the instances, every purchase reported twice
/// through two instances, notifications to one instance, which is SIGKILLed twice mid-load
/// and restarted; then judged by the integrity oracle and the webhook's receipts.
@Suite(.serialized)
struct MultiInstanceTests {
    static let instances = 3
    static let players = (1...16).map { "player\($0)" }
    static let purchasesPerPlayer = 6
    static let kills = 2
    /// The instance the emulator posts notifications to, and the one killed.
    static let victim = 0

    @Test func threeInstancesOnOnePostgresLoseNothingAndDeliverNothingTwice() async throws {
        let started = ContinuousClock.now
        let database = try await StoreKind.postgres.makeDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("instances-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ports = Self.distinctPorts(Self.instances + 1)
        let webhook = try await WebhookReceiver()

        let emulator = try ChildServer(
            [
                "emulator", "--port", "\(ports[Self.instances])", "--data-dir",
                folder.appendingPathComponent("emulator").path,
                "--time-scale", "0.0001",
                "--notification-url", "http://127.0.0.1:\(ports[Self.victim])/v1/notifications/apple",
            ], port: ports[Self.instances])
        try await emulator.waitUntilServing("/emulator/v1/roots")
        let staging = try await StagingDeployment(
            folder: folder, emulatorPort: emulator.port, webhookURL: webhook.url, reconcilerIntervalSeconds: 4)

        // All three start at once on the fresh database: each migrates it.
        let servers = ports.prefix(Self.instances).map { port in
            KillableDevServer(arguments: staging.serveArguments(port: port, databaseURL: database.url), port: port)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for server in servers { group.addTask { try await server.start() } }
            try await group.waitForAll()
        }
        for server in servers {
            let (status, health) = try await LoopbackHTTP.request(port: server.port, "GET", "/healthz")
            #expect(status == 200)
            #expect(health["trustsAdditionalRoots"] as? Bool == true, "\(health)")
            #expect((health["additionalRoots"] as? [String])?.count == 2)
        }

        let truth = PurchaseGroundTruth()
        var apps: [PlayerApp] = []
        for (index, player) in Self.players.enumerated() {
            apps.append(
                PlayerApp(
                    player: player, token: try await StagingDeployment.token(player),
                    port: servers[index % Self.instances].port, truth: truth, emulatorPort: emulator.port,
                    duplicatePort: servers[(index + 1) % Self.instances].port))
        }
        let total = Self.players.count * Self.purchasesPerPlayer
        try await buyWhileKilling(
            apps, purchases: Self.purchasesPerPlayer, victim: servers[Self.victim], kills: Self.kills, truth: truth)
        let loaded = ContinuousClock.now

        // Quiesce: every delivery's webhook acknowledged (a post claimed by a killed instance
        // waits for its claim to expire), then one reconciler pass by hand.
        let store = try database.open()
        let deliveries = try await store.deliveries(players: Self.players)
        try await Self.waitForOutbox(store, transactionIds: deliveries.map(\.transactionId))
        let drained = ContinuousClock.now
        let (reconcile, skipped) = try await Self.reconcile(staging, databaseURL: database.url)
        #expect(reconcile.status == 0, "\(reconcile.stdout) \(reconcile.stderr)")
        let reconciled = ContinuousClock.now
        let report = try reconcile.json()
        #expect(report["processed"] as? Int == 0, "every purchase was reported: the pass finds nothing new")

        let (ledgerStatus, ledger) = try await LoopbackHTTP.requestList(
            port: emulator.port, "GET", "/emulator/v1/ledger")
        #expect(ledgerStatus == 200)
        for server in servers { #expect(await server.stop() == 0, "SIGTERM stops each instance gracefully") }
        emulator.terminate()
        await webhook.stop()

        // Judge: Apple's charges against the ledger, with the payer from the players' own record.
        let charges = await truth.charges(fromEmulatorLedger: ledger)
        let finalDeliveries = try await store.deliveries(players: Self.players)
        let migrations = try await store.appliedMigrations()
        try await store.close()
        #expect(charges.count == total, "one charge per purchase")
        let verdict = IntegrityOracle { ProductCatalog.sample.product($0)?.grants }
            .judge(charges: charges, ledger: finalDeliveries)
        #expect(verdict.violations.isEmpty, "\(verdict.violations)")
        #expect(verdict.counts.delivered == total)
        let acknowledged = await truth.acknowledged
        let deliveredTo = Dictionary(finalDeliveries.map { ($0.transactionId, $0.playerId) }) { first, _ in first }
        #expect(acknowledged.count == total)
        for (transactionId, player) in acknowledged {
            #expect(deliveredTo[transactionId] == player, "acknowledged \(transactionId) to \(player)")
        }
        let duplicates = await truth.duplicateAnswers
        #expect(duplicates.count == total, "each purchase reported again through another instance")
        #expect(
            duplicates.values.allSatisfy { $0 == "already_delivered" },
            "\(duplicates.filter { $0.value != "already_delivered" })")

        // Every delivery was posted at least once, keyed by its transaction id; nothing else was.
        let keys = await webhook.keys.received
        #expect(Set(keys) == Set(deliveredTo.keys))
        #expect(await servers[Self.victim].kills == Self.kills)
        #expect(Set(migrations).count == migrations.count, "each migration applied once: \(migrations)")
        #expect(!migrations.isEmpty)

        let seconds = { (duration: Duration) in
            String(format: "%.1f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        }
        print(
            "multi-instance: \(Self.instances) instances, \(total) purchases, \(duplicates.count) duplicate reports, "
                + "\(Self.kills) SIGKILLs, \(await truth.unanswered) unanswered requests, \(keys.count) webhook posts "
                + "for \(Set(keys).count) deliveries, \(skipped) reconcile runs skipped; load "
                + "\(seconds(loaded - started)) s, outbox drained at \(seconds(drained - started)) s, reconciled at "
                + "\(seconds(reconciled - started)) s, total \(seconds(ContinuousClock.now - started)) s")
    }

    /// `count` different loopback ports.
    static func distinctPorts(_ count: Int) -> [Int] {
        var ports: [Int] = []
        while ports.count < count {
            let port = LoopbackPort.unused()
            if !ports.contains(port) { ports.append(port) }
        }
        return ports
    }

    /// Waits (up to 90 s: a claim left by a killed instance expires after 60) until every
    /// transaction's webhook message has been acknowledged.
    static func waitForOutbox(_ store: any LedgerStore, transactionIds: [String]) async throws {
        let deadline = ContinuousClock.now + .seconds(90)
        var pending = transactionIds
        while !pending.isEmpty {
            var still: [String] = []
            for transactionId in pending
            where try await store.outboxMessage(idempotencyKey: transactionId)?.deliveredAt == nil {
                still.append(transactionId)
            }
            pending = still
            guard ContinuousClock.now < deadline else {
                Issue.record("webhook messages never acknowledged: \(pending)")
                return
            }
            if !pending.isEmpty { try await Task.sleep(for: .milliseconds(250)) }
        }
    }

    /// Runs `storekeeper reconcile --json` until it is not skipped (a killed instance's lease
    /// expires after 60 s), at most 90 s; its last output and how many runs were skipped.
    static func reconcile(
        _ staging: StagingDeployment, databaseURL: String
    ) async throws -> (CommandLineRunner.Output, skipped: Int) {
        let deadline = ContinuousClock.now + .seconds(90)
        var skipped = 0
        while true {
            let output = try await CommandLineRunner.run([
                "reconcile", "--config", staging.configFile.path, "--database", databaseURL, "--json",
            ])
            guard output.status == 3, ContinuousClock.now < deadline else { return (output, skipped) }
            skipped += 1
            let expiresAt = try (output.json()["leaseExpiresAt"] as? String).flatMap {
                try Date($0, strategy: .iso8601)
            }
            // A live holder releases the lease at the end of its pass, a dead one's expires:
            // look again every two seconds at most.
            let wait = min(max((expiresAt ?? Date()).timeIntervalSinceNow, 0.2), 2)
            try await Task.sleep(for: .milliseconds(Int(wait * 1_000)))
        }
    }
}
