import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `purchase_days` and `refund_days` (migration 20, ``LedgerSchema/revenueDays``) on
/// PostgreSQL: a delivery or a refund that its trigger has counted but that has not committed
/// when a backfill batch starts is counted once. (The revenue they give, on both ledgers, is
/// checked against the revenue from every delivery by `DailyRevenueRollupTests`.)
struct RevenueDaysTests {
    /// The rows of `purchase_days` and `refund_days` (their shards added up, rows at 0 left
    /// out) beside the same counts made from `purchases` (`dayOf` gives the UTC day of a
    /// column in the ledger's dialect: ``LedgerSchema/sqliteDay(_:)``,
    /// ``LedgerSchema/postgresDay(_:)``): each pair must hold the same rows.
    static func keptAndRecounted(dayOf: (String) -> String) -> [(kept: String, recounted: String)] {
        [
            (
                """
                SELECT delivered_day, day, product_id, quantity, CAST(SUM(purchases) AS BIGINT) AS n FROM purchase_days
                GROUP BY delivered_day, day, product_id, quantity HAVING SUM(purchases) <> 0
                """,
                """
                SELECT \(dayOf("delivered_at")) AS delivered_day, \(dayOf("purchase_date")) AS day, product_id,
                    quantity, COUNT(*) AS n FROM purchases GROUP BY 1, 2, 3, 4
                """
            ),
            (
                """
                SELECT day, product_id, quantity, refunded_share, CAST(SUM(purchases) AS BIGINT) AS n FROM refund_days
                GROUP BY day, product_id, quantity, refunded_share HAVING SUM(purchases) <> 0
                """,
                """
                SELECT \(dayOf("refunded_at")) AS day, product_id, quantity, refunded_share, COUNT(*) AS n
                FROM purchases WHERE refunded_share > 0 AND refunded_at IS NOT NULL GROUP BY 1, 2, 3, 4
                """
            ),
        ]
    }

    /// How many rows differ between each kept table and its recount (0 when they agree).
    static func differences(_ store: any SQLLedgerStore, dayOf: (String) -> String) async throws -> [Int64] {
        var differences: [Int64] = []
        for (kept, recounted) in keptAndRecounted(dayOf: dayOf) {
            let statement = LedgerStatement(
                """
                SELECT COUNT(*) AS n FROM (SELECT * FROM (\(kept) EXCEPT \(recounted)) AS a
                    UNION ALL SELECT * FROM (\(recounted) EXCEPT \(kept)) AS b) AS differences
                """)
            differences.append(try await store.read(.first(statement) { try $0.requiredInteger("n") }) ?? -1)
        }
        return differences
    }

    @Test("PostgreSQL: a delivery counted but not committed when a purchase_days backfill batch starts is counted once")
    func inFlightDeliveryIsCountedOnce() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let inFlight = try PausedDelivery(url: database.url)
        let store = inFlight.store
        try await store.migrate()
        for _ in 0..<3 { _ = try await store.deliver(Fixture.delivery()) }
        // The backfill must repair counts, not add to them: start it from wrong ones.
        try await PostgresCluster.shared.execute(database: database.name, "UPDATE purchase_days SET purchases = 7")
        let paused = await inFlight.start(player: "in-flight")
        let backfill = Task {
            try await store.onConnection { connection in
                try await store.run(LedgerSchema.revenueDays.postgresBackfills[0], on: connection)
            }
        }
        do {
            try await waitUntilTheBackfillWaits(store, lockingTable: "purchase_days")
            inFlight.release()
            _ = try await paused.value
            try await backfill.value
            #expect(try await Self.differences(store, dayOf: LedgerSchema.postgresDay) == [0, 0])
            let total = LedgerStatement("SELECT CAST(SUM(purchases) AS BIGINT) AS n FROM purchase_days")
            #expect(try await store.read(.first(total) { try $0.requiredInteger("n") }) == 4)
            _ = try await store.deliver(Fixture.delivery())
            #expect(try await store.read(.first(total) { try $0.requiredInteger("n") }) == 5)
            try await store.close()
        } catch {
            inFlight.release()
            _ = try? await paused.value
            _ = try? await backfill.value
            try? await store.close()
            throw error
        }
    }

    /// The refund is the ledger's own kind of `UPDATE` of `refunded_share` and `refunded_at`,
    /// held open by the test between it and its commit (the ledger's pause points all come
    /// before a refund's write), as `RefundCountsTests` holds one.
    @Test("PostgreSQL: a refund moved but not committed when a refund_days backfill batch starts is counted once")
    func inFlightRefundIsCountedOnce() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let store = try PostgresLedgerStore(url: database.url)
        try await store.migrate()
        var deliveries: [Delivery] = []
        for _ in 0..<4 {
            let delivery = Fixture.delivery()
            _ = try await store.deliver(delivery)
            deliveries.append(delivery)
        }
        for delivery in deliveries.prefix(2) {
            _ = try await store.reverse(store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
        }
        // The backfill must repair counts, not add to them: start it from wrong ones, and a
        // row no refund holds.
        try await PostgresCluster.shared.execute(database: database.name, "UPDATE refund_days SET purchases = 7")
        try await PostgresCluster.shared.execute(
            database: database.name,
            """
            INSERT INTO refund_days (day, product_id, quantity, refunded_share, shard, purchases)
            VALUES (3, 'gone', 1, 100000, 5, -1)
            """)
        let refund = LedgerStatement(
            "UPDATE purchases SET refunded_share = ?, refunded_at = now() WHERE transaction_id = ?",
            [.integer(Int64(RefundShare.whole)), .text(deliveries[2].transactionId)])
        do {
            try await runBackfill(
                LedgerSchema.revenueDays.postgresBackfills[1], behind: refund, on: store, lockingTable: "refund_days")
            #expect(try await Self.differences(store, dayOf: LedgerSchema.postgresDay) == [0, 0])
            let total = LedgerStatement("SELECT CAST(SUM(purchases) AS BIGINT) AS n FROM refund_days")
            #expect(try await store.read(.first(total) { try $0.requiredInteger("n") }) == 3)
            _ = try await store.reverse(store: .appStore, transactionId: deliveries[3].transactionId, reason: "REFUND")
            _ = try await store.regrant(store: .appStore, transactionId: deliveries[0].transactionId)
            #expect(try await Self.differences(store, dayOf: LedgerSchema.postgresDay) == [0, 0])
            #expect(try await store.read(.first(total) { try $0.requiredInteger("n") }) == 3)
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }
}
