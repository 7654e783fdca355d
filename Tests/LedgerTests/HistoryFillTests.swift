import Foundation
import GRDB
import LedgerTestSupport
import Testing

@testable import Ledger

/// `fill-ledger`'s generator writes a ledger the server's own reads and rules accept: the
/// counts it reports, balances that are the sum of their entries, the whale it names, and
/// the same ledger for the same seed.
struct HistoryFillTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let products = [
        FillProduct(productId: "coins100", kind: .consumable, grants: ["coins": 100]),
        FillProduct(productId: "potion", kind: .consumable, grants: ["potion": 1]),
        FillProduct(productId: "levelpack1", kind: .nonConsumable, entitlement: "levelpack1"),
        FillProduct(productId: "vip.monthly", kind: .autoRenewable, entitlement: "vip"),
        FillProduct(productId: "seasonpass", kind: .nonRenewing, entitlement: "seasonpass", periodDays: 90),
    ]

    private func count(_ sql: String, in store: any LedgerStore) async throws -> Int64 {
        let store = try #require(store as? any SQLLedgerStore)
        return try await store.read(.first(LedgerStatement(sql), { try $0.requiredInteger("n") })) ?? -1
    }

    /// Expects the two queries to answer the same rows (as sets: their union is each alone).
    private func expectSameRows(_ first: String, _ second: String, in store: any LedgerStore) async throws {
        let union = try await count("SELECT COUNT(*) AS n FROM (\(first) UNION \(second)) AS rows", in: store)
        #expect(try await count("SELECT COUNT(*) AS n FROM (\(first)) AS rows", in: store) == union)
        #expect(try await count("SELECT COUNT(*) AS n FROM (\(second)) AS rows", in: store) == union)
    }

    @Test("a fill writes what its summary counts, balances that add up, and a whale", arguments: StoreKind.allCases)
    func fillIsConsistent(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let summary = try await HistoryFill.fill(
                store, purchases: 1_500, products: Self.products, random: SeededGenerator(seed: 7), now: Self.now)
            #expect(summary.purchases == 1_500)
            #expect(try await count("SELECT COUNT(*) AS n FROM purchases", in: store) == 1_500)
            #expect(try await count("SELECT COUNT(*) AS n FROM orders", in: store) == Int64(summary.orders))
            #expect(summary.unpaidOrders > 0 && summary.refunds > 0 && summary.partialRefunds > 0)
            #expect(summary.renewals > 0 && summary.entitlements > 0 && summary.clientEvents > 0)
            #expect(
                try await count("SELECT COUNT(*) AS n FROM orders WHERE status = 'created'", in: store)
                    == Int64(summary.unpaidOrders))
            #expect(
                try await count("SELECT COUNT(*) AS n FROM history_events", in: store) == Int64(summary.historyEvents))
            #expect(try await count("SELECT COUNT(*) AS n FROM refund_notices", in: store) == Int64(summary.refunds))
            #expect(try await count("SELECT COUNT(*) AS n FROM entitlements", in: store) == Int64(summary.entitlements))
            #expect(
                try await count("SELECT COUNT(*) AS n FROM notifications", in: store) == Int64(summary.notifications))
            // The notifications that came before the device's report left their evidence, and
            // every one of those transactions was delivered since: nothing is owed.
            #expect(summary.awaitingReports > 0)
            #expect(
                try await count("SELECT COUNT(*) AS n FROM history_events WHERE type = 'awaiting_report'", in: store)
                    == Int64(summary.awaitingReports))
            #expect(try await count("SELECT COUNT(*) AS n FROM owed_transactions", in: store) == 0)
            // The player-less events of delivered transactions are each on their player's
            // timeline: `player_unowned_events`, filled once after the load.
            let unowned = try await count(
                """
                SELECT COUNT(*) AS n FROM history_events JOIN purchases ON purchases.transaction_id = history_events.transaction_id
                WHERE history_events.player_id IS NULL AND purchases.store = \(LedgerSQL.storeOfEvent)
                """, in: store)
            #expect(unowned > 0)
            #expect(try await count("SELECT COUNT(*) AS n FROM player_unowned_events", in: store) == unowned)
            // Each player's sums, filled once after the load: the rows kept are the rows added up.
            try await expectSameRows(
                "SELECT player_id, item, kind, total FROM player_entry_totals",
                "SELECT player_id, item, kind, CAST(SUM(amount) AS BIGINT) FROM ledger_entries GROUP BY player_id, item, kind",
                in: store)
            try await expectSameRows(
                "SELECT player_id, product_id, quantity, refunded_share, purchases FROM player_purchase_groups",
                """
                SELECT player_id, product_id, quantity, refunded_share, COUNT(*) FROM purchases
                GROUP BY player_id, product_id, quantity, refunded_share
                """, in: store)
            #expect(try await count("SELECT COUNT(*) AS n FROM player_purchase_groups", in: store) > 100)
            #expect(try await store.owedCount(learnedBefore: .distantFuture) == 0)
            #expect(
                try await count(
                    "SELECT COUNT(DISTINCT player_id) AS n FROM orders", in: store) == Int64(summary.players))
            #expect(
                try await count(
                    """
                    SELECT COUNT(*) AS n FROM balances b WHERE b.amount <> (SELECT SUM(e.amount) FROM ledger_entries e
                        WHERE e.player_id = b.player_id AND e.item = b.item)
                    """, in: store) == 0)
            #expect(
                try await count(
                    """
                    SELECT COUNT(*) AS n FROM (SELECT player_id, COUNT(*) AS bought FROM purchases GROUP BY player_id) p
                    WHERE p.bought >= \(summary.whalePurchases) AND p.player_id <> '\(summary.whale)'
                    """, in: store) == 0)
            #expect(summary.whalePurchases == HistoryFill.whalePurchases(of: 1_500))
            // delivery_days (migration 18) holds the fill's purchases counted per day and
            // source: its trigger fires on the bulk load's rows too.
            let day =
                kind == .sqlite ? LedgerSchema.sqliteDay("delivered_at") : LedgerSchema.postgresDay("delivered_at")
            let recount = "SELECT \(day) AS day, source, COUNT(*) AS deliveries FROM purchases GROUP BY 1, 2"
            let kept = "SELECT day, source, CAST(SUM(deliveries) AS BIGINT) FROM delivery_days GROUP BY day, source"
            #expect(
                try await count("SELECT CAST(SUM(deliveries) AS BIGINT) AS n FROM delivery_days", in: store) == 1_500)
            #expect(
                try await count(
                    """
                    SELECT COUNT(*) AS n FROM (SELECT * FROM (\(kept) EXCEPT \(recount)) AS a
                        UNION ALL SELECT * FROM (\(recount) EXCEPT \(kept)) AS b) AS differences
                    """, in: store) == 0)
            // delivery_latencies (migration 18 too) holds them per day and bucket of their
            // time from charge to delivery.
            let bucket =
                kind == .sqlite
                ? LedgerSchema.sqliteLatencyBucket("") : LedgerSchema.postgresLatencyBucket("purchases.")
            let recountLatencies =
                "SELECT \(day) AS day, \(bucket) AS lower_bound, COUNT(*) AS deliveries FROM purchases GROUP BY 1, 2"
            let keptLatencies = """
                SELECT day, lower_bound, CAST(SUM(deliveries) AS BIGINT) FROM delivery_latencies GROUP BY day, lower_bound
                """
            #expect(
                try await count("SELECT CAST(SUM(deliveries) AS BIGINT) AS n FROM delivery_latencies", in: store)
                    == 1_500)
            #expect(
                try await count(
                    """
                    SELECT COUNT(*) AS n FROM (SELECT * FROM (\(keptLatencies) EXCEPT \(recountLatencies)) AS a
                        UNION ALL SELECT * FROM (\(recountLatencies) EXCEPT \(keptLatencies)) AS b) AS differences
                    """, in: store) == 0)
            #expect(
                try await count("SELECT COUNT(DISTINCT lower_bound) AS n FROM delivery_latencies", in: store) > 1,
                "the fill's times fall in more than one bucket")
            // player_refunds (migration 19) holds the fill's refunded purchases counted per
            // player: its insert trigger fires on the bulk load's refunded rows too.
            let refunds = "SELECT player_id, COUNT(*) AS n FROM purchases WHERE refunded_share > 0 GROUP BY player_id"
            let counted = "SELECT player_id, refunded_purchases FROM player_refunds WHERE refunded_purchases <> 0"
            #expect(
                try await count("SELECT COUNT(*) AS n FROM player_refunds WHERE refunded_purchases > 0", in: store) > 0)
            #expect(
                try await count(
                    """
                    SELECT COUNT(*) AS n FROM (SELECT * FROM (\(counted) EXCEPT \(refunds)) AS a
                        UNION ALL SELECT * FROM (\(refunds) EXCEPT \(counted)) AS b) AS differences
                    """, in: store) == 0)

            // purchase_days and refund_days (migration 20) hold the fill's purchases counted per
            // day of delivery, day of purchase, product and quantity, and its refunded ones per
            // day of refund, product, quantity and share: the insert trigger fires on the bulk
            // load's rows too.
            #expect(
                try await count("SELECT CAST(SUM(purchases) AS BIGINT) AS n FROM purchase_days", in: store) == 1_500)
            #expect(
                try await count("SELECT CAST(SUM(purchases) AS BIGINT) AS n FROM refund_days", in: store) > 0)
            #expect(
                try await RevenueDaysTests.differences(
                    try #require(store as? any SQLLedgerStore),
                    dayOf: kind == .sqlite ? LedgerSchema.sqliteDay : LedgerSchema.postgresDay) == [0, 0])

            // The ledger's own reads and rules work on what the fill wrote.
            #expect(try await store.purchases(playerId: summary.whale).count == summary.whalePurchases)
            let wallet = try await store.wallet(playerId: summary.whale)
            #expect(wallet["coins", default: 0] != 0)
            let delivered = try await store.deliver(
                Fixture.delivery(transactionId: "9000000000000001", player: summary.whale, grants: ["coins": 100]))
            #expect(delivered.isFirstDelivery)
            #expect(try await store.wallet(playerId: summary.whale)["coins"] == wallet["coins", default: 0] + 100)
        }
    }

    /// The ledger's indexes by name, with their definitions.
    private func indexes(of store: any LedgerStore, kind: StoreKind) async throws -> [String] {
        let store = try #require(store as? any SQLLedgerStore)
        let sql =
            kind == .sqlite
            ? "SELECT name || ': ' || coalesce(sql, 'automatic') AS d FROM sqlite_master WHERE type = 'index' ORDER BY name"
            : """
            SELECT c.relname || ': ' || pg_get_indexdef(i.indexrelid) || CASE WHEN i.indisvalid THEN '' ELSE ' INVALID' END AS d
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE c.relnamespace = to_regnamespace(current_schema()) ORDER BY c.relname
            """
        return try await store.read(.rows(LedgerStatement(sql), { try $0.requiredText("d") }))
    }

    /// The ledger's triggers by table and name, each with whether it fires (PostgreSQL's
    /// `tgenabled`; SQLite's are there or not).
    private func triggers(of store: any LedgerStore, kind: StoreKind) async throws -> [String] {
        let store = try #require(store as? any SQLLedgerStore)
        let sql =
            kind == .sqlite
            ? "SELECT tbl_name || '.' || name AS d FROM sqlite_master WHERE type = 'trigger' ORDER BY d"
            : """
            SELECT tgrelid::regclass::text || '.' || tgname || ' ' || tgenabled::text AS d FROM pg_trigger
            WHERE NOT tgisinternal ORDER BY d
            """
        return try await store.read(.rows(LedgerStatement(sql), { try $0.requiredText("d") }))
    }

    @Test(
        "a fill drops the non-unique indexes and suspends the triggers it rebuilds while it loads, and leaves every index and trigger the migrations make",
        arguments: StoreKind.allCases)
    func fillLeavesTheIndexes(kind: StoreKind) async throws {
        let migrated = try await withStore(kind) { store, _ in
            try await store.migrate()
            return (
                indexes: try await indexes(of: store, kind: kind), triggers: try await triggers(of: store, kind: kind)
            )
        }
        try await withStore(kind) { store, _ in
            _ = try await HistoryFill.fill(
                store, purchases: 300, products: Self.products, random: SeededGenerator(seed: 3), now: Self.now)
            #expect(try await indexes(of: store, kind: kind) == migrated.indexes)
            #expect(migrated.indexes.contains { $0.hasPrefix("history_events_") })
            #expect(try await triggers(of: store, kind: kind) == migrated.triggers)
            #expect(migrated.triggers.contains { $0.hasPrefix("purchases.purchases_unowned_events") })
            #expect(migrated.triggers.contains { $0.hasPrefix("ledger_entries.ledger_entries_player_total") })
            if let sqlite = store as? SQLiteLedgerStore {
                // The writer waits for the disk again, as a served ledger's does.
                let synchronous = try await sqlite.writer.writeWithoutTransaction { db in
                    try Int.fetchOne(db, sql: "PRAGMA synchronous")
                }
                #expect(synchronous == 2)
            }
        }
    }

    @Test("the same seed fills the same ledger")
    func sameSeedSameLedger() async throws {
        var digests: [String] = []
        var summaries: [HistoryFillSummary] = []
        for _ in 0..<2 {
            try await withStore(.sqlite) { store, _ in
                var summary = try await HistoryFill.fill(
                    store, purchases: 400, products: Self.products, random: SeededGenerator(seed: 11), now: Self.now)
                summary.seconds = 0
                summaries.append(summary)
                let sql = try #require(store as? any SQLLedgerStore)
                let rows = try await sql.read(
                    .rows(
                        LedgerStatement(
                            "SELECT transaction_id, player_id, product_id, status FROM purchases ORDER BY transaction_id"
                        ),
                        {
                            try [
                                $0.requiredText("transaction_id"), $0.requiredText("player_id"),
                                $0.requiredText("product_id"), $0.requiredText("status"),
                            ].joined(separator: ",")
                        }))
                digests.append(rows.joined(separator: ";"))
            }
        }
        #expect(summaries[0] == summaries[1])
        #expect(digests[0] == digests[1])
        #expect(!digests[0].isEmpty)
    }

    @Test("a ledger that holds orders is refused, and nothing is added to it")
    func refusesAServedLedger() async throws {
        try await withStore(.sqlite) { store, _ in
            _ = try await store.createOrder(Fixture.order())
            await #expect(throws: HistoryFillError.self) {
                try await HistoryFill.fill(
                    store, purchases: 10, products: Self.products, random: SeededGenerator(seed: 1), now: Self.now)
            }
            #expect(try await count("SELECT COUNT(*) AS n FROM purchases", in: store) == 0)
        }
    }

    @Test("a timestamptz literal names the right UTC moment, before 1970 too")
    func copyTimestamps() {
        #expect(CopyTimestamp.text(milliseconds: 0) == "1970-01-01 00:00:00.000+00")
        #expect(CopyTimestamp.text(milliseconds: 1_795_000_000_123) == "2026-11-18 11:06:40.123+00")
        #expect(CopyTimestamp.text(milliseconds: 951_782_400_000) == "2000-02-29 00:00:00.000+00")
        #expect(CopyTimestamp.text(milliseconds: -1) == "1969-12-31 23:59:59.999+00")
    }
}
