import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `player_refunds` (migration 19, ``LedgerSchema/refundCounts``): refunded purchases counted
/// per player, backfilled from the purchases already there and then kept by triggers, and
/// the refund signals read from it answering exactly as the statement before it, which
/// grouped every refunded purchase of the ledger by player. Their reversals, counted through
/// `history_events_reversals_by_player` (migration 21, ``LedgerSchema/reversalIndex``), are
/// those the statement before it counted among all of each player's events.
struct RefundCountsTests {
    /// The refund signals' statement before migration 19 (the reference): each listed
    /// player's reversals counted with the event type a bound parameter, as before migration
    /// 21, which no partial index serves (every event of the player is read).
    private static func groupingEveryRefund(minimumRefunds: Int, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            WITH refunded AS (
                SELECT player_id, COUNT(*) AS refunded_purchases FROM purchases WHERE refunded_share > 0
                GROUP BY player_id
            ), signalled AS (
                SELECT candidates.player_id, COALESCE(refunded.refunded_purchases, 0) AS refunded_purchases
                FROM (
                    SELECT player_id FROM balances WHERE amount < 0
                    UNION
                    SELECT player_id FROM refunded WHERE refunded_purchases >= ?
                ) candidates
                LEFT JOIN refunded ON refunded.player_id = candidates.player_id
                ORDER BY refunded_purchases DESC, candidates.player_id
                LIMIT ?
            )
            SELECT signalled.player_id, signalled.refunded_purchases,
                   (SELECT COUNT(*) FROM history_events
                    WHERE history_events.player_id = signalled.player_id AND history_events.type = ?) AS reversals,
                   balances.item, balances.amount
            FROM signalled
            LEFT JOIN balances ON balances.player_id = signalled.player_id AND balances.amount < 0
            ORDER BY signalled.refunded_purchases DESC, signalled.player_id, balances.item
            """,
            [
                .integer(Int64(max(minimumRefunds, 1))), .integer(Int64(limit)),
                .text(HistoryEventType.refundReversed.rawValue),
            ]
        )
    }

    /// The players' refunded purchases counted from the purchases, in player order.
    private static let recounted = LedgerStatement(
        """
        SELECT player_id, COUNT(*) AS refunded_purchases FROM purchases WHERE refunded_share > 0
        GROUP BY player_id ORDER BY player_id
        """)
    /// The players' refunded purchases as `player_refunds` keeps them (rows at 0 left out),
    /// in player order.
    private static let kept = LedgerStatement(
        "SELECT player_id, refunded_purchases FROM player_refunds WHERE refunded_purchases <> 0 ORDER BY player_id")

    @Test(
        "player_refunds and the refund signals answer as grouping every refund did, before and after migration 19",
        arguments: StoreKind.allCases)
    func answersAsBefore(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        do {
            try await store.migrate(through: 18)
            try await Self.refundsAndReversals(on: store, series: "first")
            #expect(try await Self.counts(store, Self.recounted).count == 5, "players with refunds before 19")
            try await store.migrate(through: 19)
            #expect(try await store.appliedMigrations().last == 19)
            try await Self.expectSameAnswers(store)
            // Refunds and reversals after the migration, of the players counted by the
            // backfill (a reversal of a refund it counted) and of new ones.
            try await Self.refundsAndReversals(on: store, series: "first")
            try await Self.refundsAndReversals(on: store, series: "second")
            try await Self.expectSameAnswers(store)
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    @Test(
        "the reversals counted through migration 21's index are the events counted one by one, before and after it",
        arguments: StoreKind.allCases)
    func reversalsAsCounted(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        do {
            try await store.migrate(through: LedgerSchema.reversalIndex.version - 1)
            try await Self.refundsAndReversals(on: store, series: "first")
            let before = try await Self.reversals(store)
            #expect(before.values.contains(0) && before.values.contains { $0 > 0 }, "\(before)")
            try await store.migrate()
            #expect(try await Self.indexes(store).contains(LedgerSchema.reversalsByPlayer.name))
            try await Self.expectSameAnswers(store)
            #expect(try await Self.reversals(store) == before, "the migration changes no count")
            // Reversals written after the migration, of players with reversals before it and
            // of new ones.
            try await Self.refundsAndReversals(on: store, series: "first")
            try await Self.refundsAndReversals(on: store, series: "second")
            try await Self.expectSameAnswers(store)
            let after = try await Self.reversals(store)
            #expect(after.filter { $0.key.hasPrefix("first-") } == before.mapValues { $0 * 2 })
            #expect(after.filter { $0.key.hasPrefix("second-") }.count == before.count)
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// A refund whose trigger has counted it but which has not committed when a batch of the
    /// PostgreSQL backfill starts: the batch's lock waits for it, and its recount then holds
    /// it once. (Without the lock, the batch's recount would miss the uncommitted refund
    /// and overwrite the trigger's count after it committed: one refund short.) The refund
    /// is the ledger's own `UPDATE` of `refunded_share`, held open by the test between it
    /// and its commit (the ledger's pause points all come before a refund's write).
    @Test("PostgreSQL: a refund counted but not committed when a backfill batch starts is counted once")
    func inFlightRefundIsCountedOnce() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let store = try PostgresLedgerStore(url: database.url)
        try await store.migrate()
        var deliveries: [Delivery] = []
        for _ in 0..<4 {
            let delivery = Fixture.delivery(player: "in-flight")
            _ = try await store.deliver(delivery)
            deliveries.append(delivery)
        }
        for delivery in deliveries.prefix(2) {
            _ = try await store.reverse(store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
        }
        // A refunded purchase of a player after the one in flight: the last batch (which runs
        // again from its last player) does not recount the player in flight.
        let later = Fixture.delivery(player: "later")
        _ = try await store.deliver(later)
        _ = try await store.reverse(store: .appStore, transactionId: later.transactionId, reason: "REFUND")
        // The backfill must repair counts, not add to them: start it from wrong ones.
        try await PostgresCluster.shared.execute(
            database: database.name, "UPDATE player_refunds SET refunded_purchases = 7")
        try await PostgresCluster.shared.execute(
            database: database.name, "INSERT INTO player_refunds (player_id, refunded_purchases) VALUES ('gone', -1)")
        let refund = LedgerStatement(
            "UPDATE purchases SET refunded_share = ? WHERE transaction_id = ?",
            [.integer(Int64(RefundShare.whole)), .text(deliveries[2].transactionId)])
        do {
            try await runBackfill(
                LedgerSchema.refundCounts.postgresBackfills[0], behind: refund, on: store,
                lockingTable: "player_refunds")
            #expect(try await Self.counts(store, Self.kept) == ["in-flight=3", "later=1"])
            _ = try await store.reverse(store: .appStore, transactionId: deliveries[3].transactionId, reason: "REFUND")
            _ = try await store.regrant(store: .appStore, transactionId: deliveries[0].transactionId)
            #expect(try await Self.counts(store, Self.kept) == ["in-flight=3", "later=1"])
            #expect(try await Self.counts(store, Self.recounted) == ["in-flight=3", "later=1"])
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// Refunds of every kind for the players of `series`: whole refunds, partial ones (raised,
    /// and the share of another refunded in part taken back to 0), reversals, players tied on
    /// their count, one refunded and then reversed (a count of 0), and negative balances with
    /// and without refunds.
    static func refundsAndReversals(on store: any LedgerStore, series: String) async throws {
        func deliver(_ player: String) async throws -> String {
            let delivery = Fixture.delivery(player: "\(series)-\(player)")
            _ = try await store.deliver(delivery)
            return delivery.transactionId
        }
        func refund(_ transactionId: String) async throws {
            _ = try await store.reverse(store: .appStore, transactionId: transactionId, reason: "REFUND")
        }
        // Three whole refunds each, tied; a fourth purchase of "tied-b" not refunded.
        for player in ["tied-a", "tied-b"] {
            for _ in 0..<3 { try await refund(try await deliver(player)) }
        }
        _ = try await deliver("tied-b")
        // A whole refund, one refunded in part (30 %, then 80 %), one in part then reversed
        // to 0 by Apple, one refunded whole then given back by staff.
        try await refund(try await deliver("partial"))
        let raised = try await deliver("partial")
        _ = try await RefundNoticeFixture.settle(store, raised, "REFUND", share: 30_000, signedAt: 1_000)
        _ = try await RefundNoticeFixture.settle(store, raised, "REFUND", share: 80_000, signedAt: 2_000)
        let reversed = try await deliver("partial")
        _ = try await RefundNoticeFixture.settle(store, reversed, "REFUND", share: 50_000, signedAt: 1_000)
        _ = try await RefundNoticeFixture.settle(store, reversed, "REFUND_REVERSED", signedAt: 2_000)
        let regranted = try await deliver("partial")
        try await refund(regranted)
        _ = try await store.regrant(store: .appStore, transactionId: regranted)
        // Refunded, then given back: no refunded purchase left (a row at 0 after 19).
        let givenBack = try await deliver("given-back")
        try await refund(givenBack)
        _ = try await store.regrant(store: .appStore, transactionId: givenBack)
        // One refund after spending: a negative balance and a refund.
        let spent = try await deliver("spent")
        _ = try await store.grantManually(
            playerId: "\(series)-spent", grants: ["coins": -80], reason: "spent", actor: "game")
        try await refund(spent)
        // A negative balance and no refund; one refund of a single purchase.
        _ = try await store.grantManually(
            playerId: "\(series)-negative", grants: ["coins": -50, "gems": -1], reason: "correction", actor: "alice")
        try await refund(try await deliver("single"))
    }

    /// Expects the refund signals' rows, for minimums and limits that cut through ties and
    /// through the negative balances, to be those of the statement before migration 19, and
    /// `player_refunds` to hold the recount (no row below 0).
    private static func expectSameAnswers(_ store: any SQLLedgerStore) async throws {
        for (minimumRefunds, limit) in [(0, 100), (1, 1), (1, 2), (1, 3), (1, 5), (2, 1), (2, 4), (3, 2), (4, 10)] {
            let before = try await signals(store, groupingEveryRefund(minimumRefunds: minimumRefunds, limit: limit))
            let now = try await signals(store, LedgerSQL.refundSignals(minimumRefunds: minimumRefunds, limit: limit))
            #expect(now == before, "minimum \(minimumRefunds), limit \(limit)")
            #expect(!before.isEmpty)
        }
        #expect(try await counts(store, kept) == counts(store, recounted))
        let belowZero = LedgerStatement("SELECT COUNT(*) AS n FROM player_refunds WHERE refunded_purchases < 0")
        #expect(try await store.read(.first(belowZero) { try $0.requiredInteger("n") }) == 0)
    }

    /// The rows of a refund signals statement, each as one line of its columns.
    private static func signals(_ store: any SQLLedgerStore, _ statement: LedgerStatement) async throws -> [String] {
        try await store.read(
            .rows(statement) { row in
                let balance = try row.text("item").map { "\($0)=\(try row.integer("amount") ?? 0)" } ?? "-"
                return "\(try row.requiredText("player_id")) \(try row.requiredInteger("refunded_purchases")) "
                    + "\(try row.requiredInteger("reversals")) \(balance)"
            })
    }

    /// Each player the refund signals list, with their reversals as they count them.
    private static func reversals(_ store: any SQLLedgerStore) async throws -> [String: Int64] {
        let rows = try await store.read(
            .rows(LedgerSQL.refundSignals(minimumRefunds: 0, limit: 100)) { row in
                (try row.requiredText("player_id"), try row.requiredInteger("reversals"))
            })
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The names of the indexes of `history_events`.
    private static func indexes(_ store: any SQLLedgerStore) async throws -> Set<String> {
        let sqlite = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'history_events'"
        let postgres = "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'history_events'"
        return Set(
            try await store.read(
                .rows(LedgerStatement(store is PostgresLedgerStore ? postgres : sqlite)) { try $0.requiredText("name") }
            ))
    }

    /// The rows of `statement` (`player_id`, `refunded_purchases`) as `player=count` lines.
    private static func counts(_ store: any SQLLedgerStore, _ statement: LedgerStatement) async throws -> [String] {
        try await store.read(
            .rows(statement) { row in
                "\(try row.requiredText("player_id"))=\(try row.requiredInteger("refunded_purchases"))"
            })
    }
}
