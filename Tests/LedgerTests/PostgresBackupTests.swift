import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// The PostgreSQL backup path docs/deploy.md gives: `pg_dump --format=custom` of a ledger in
/// use, `pg_restore` into an empty database, and a store on the copy holds every delivery,
/// answers `alreadyDelivered` to each again, and takes new ones.
struct PostgresBackupTests {
    @Test func pgDumpAndPgRestoreGiveALedgerThatHoldsEveryDelivery() async throws {
        let source = try await StoreKind.postgres.makeDatabase()
        let store = try source.open()
        try await store.migrate()
        let order = try await store.createOrder(Fixture.order())
        var deliveries = [Fixture.delivery(orderId: order.orderId)]
        for index in 0..<9 { deliveries.append(Fixture.delivery(player: "player-\(index % 3)")) }
        var purchases: [Purchase] = []
        for delivery in deliveries { purchases.append(try await store.deliver(delivery).purchase) }
        _ = try await store.reverse(store: .appStore, transactionId: deliveries[1].transactionId, reason: "refund")

        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString).dump")
        defer { try? FileManager.default.removeItem(at: dump) }
        let sourceName = try #require(source.name)
        try await PostgresCluster.shared.runTool("pg_dump", ["--format=custom", "--file", dump.path, sourceName])
        let copyName = sourceName + "_restored"
        try await PostgresCluster.shared.runTool("createdb", [copyName])
        try await PostgresCluster.shared.runTool(
            "pg_restore", ["--exit-on-error", "--no-owner", "--dbname", copyName, dump.path])
        // The ledger keeps being written after the dump: none of this is in the copy.
        let late = Fixture.delivery(player: "player-late")
        _ = try await store.deliver(late)
        try await store.close()

        let restored = try makeLedgerStore(url: source.url.replacingOccurrences(of: sourceName, with: copyName))
        try await restored.migrate()
        #expect(try await restored.appliedMigrations() == LedgerSchema.migrations.map(\.version))
        for (delivery, purchase) in zip(deliveries, purchases) {
            let again = try await restored.deliver(delivery)
            #expect(again.purchase.transactionId == purchase.transactionId)
            guard case .alreadyDelivered = again else {
                Issue.record("\(delivery.transactionId) delivered again after the restore: \(again)")
                continue
            }
        }
        #expect(
            try await restored.purchase(store: .appStore, transactionId: deliveries[1].transactionId)?.status
                == .refunded)
        #expect(try await restored.order(id: order.orderId)?.status == .fulfilled)
        #expect(try await restored.wallet(playerId: "player-late") == [:])
        guard case .delivered = try await restored.deliver(late) else {
            Issue.record("a delivery made after the dump must be new to the copy")
            return
        }
        try await restored.close()
    }
}
