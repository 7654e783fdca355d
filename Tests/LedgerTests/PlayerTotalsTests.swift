import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `player_entry_totals` and `player_purchase_groups` (migration 24,
/// ``LedgerSchema/playerTotals``): each player's sums of entries and purchases per group,
/// backfilled from the rows already there and then kept by triggers, always the sums the
/// player page added up before (the reference statements below), on both databases.
struct PlayerTotalsTests {
    /// The sums of entries as the player page added them up before migration 24, every
    /// player's, in key order.
    private static let entriesAddedUp = LedgerStatement(
        """
        SELECT player_id, item, kind, CAST(SUM(amount) AS BIGINT) AS total FROM ledger_entries
        GROUP BY player_id, item, kind ORDER BY player_id, item, kind
        """)
    /// The sums of entries as `player_entry_totals` keeps them.
    private static let entriesKept = LedgerStatement(
        "SELECT player_id, item, kind, total FROM player_entry_totals ORDER BY player_id, item, kind")
    /// The purchases counted per group as the player page counted them before migration 24.
    private static let purchasesCounted = LedgerStatement(
        """
        SELECT player_id, product_id, quantity, refunded_share, COUNT(*) AS purchases FROM purchases
        GROUP BY player_id, product_id, quantity, refunded_share
        ORDER BY player_id, product_id, quantity, refunded_share
        """)
    /// The purchases counted per group as `player_purchase_groups` keeps them (rows at 0 left
    /// out, as the read leaves them out).
    private static let purchasesKept = LedgerStatement(
        """
        SELECT player_id, product_id, quantity, refunded_share, purchases FROM player_purchase_groups
        WHERE purchases <> 0 ORDER BY player_id, product_id, quantity, refunded_share
        """)

    @Test("the sums kept are the sums added up, before and after migration 24", arguments: StoreKind.allCases)
    func keptAsAddedUp(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        do {
            try await store.migrate(through: LedgerSchema.playerTotals.version - 1)
            try await Self.history(on: store, series: "first")
            try await store.migrate(through: LedgerSchema.playerTotals.version)
            try await Self.expectKeptAsAddedUp(store)
            // Purchases, refunds, reversals and grants after the migration, of the players
            // counted by the backfill (refunds of purchases it counted) and of new ones.
            try await Self.history(on: store, series: "first")
            try await Self.history(on: store, series: "second")
            try await Self.expectKeptAsAddedUp(store)
            let totals = try await store.playerTotals(playerId: "first-partial")
            #expect(totals.purchases.contains { $0.refundedShare == 80_000 && $0.count == 2 }, "\(totals)")
            #expect(totals.purchases.allSatisfy { $0.count > 0 }, "no empty group is read")
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// An entry and a refund whose triggers have added them but which have not committed
    /// when a batch of the PostgreSQL backfill starts: each batch's lock waits for its write,
    /// and its recount then holds it once. (Without the lock, the recount would miss the
    /// uncommitted write and overwrite the trigger's sum after it committed.)
    @Test(
        "PostgreSQL: an entry and a refund added but not committed when a backfill batch starts are counted once",
        arguments: [0, 1])
    func inFlightWriteIsCountedOnce(backfill: Int) async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let store = try PostgresLedgerStore(url: database.url)
        try await store.migrate()
        var deliveries: [Delivery] = []
        for _ in 0..<3 {
            let delivery = Fixture.delivery(player: "in-flight")
            _ = try await store.deliver(delivery)
            deliveries.append(delivery)
        }
        _ = try await store.reverse(store: .appStore, transactionId: deliveries[0].transactionId, reason: "REFUND")
        _ = try await store.deliver(Fixture.delivery(player: "later"))
        // The backfill must repair sums, not add to them: start it from wrong ones. An entry of
        // a player `known_players` does not hold, after its last player, is in the last range.
        try await PostgresCluster.shared.execute(
            database: database.name,
            """
            INSERT INTO ledger_entries (player_id, item, amount, kind, balance_after, created_at)
            VALUES ('zz-unknown', 'coins', 5, 'manual', 5, now());
            UPDATE player_entry_totals SET total = 7;
            UPDATE player_purchase_groups SET purchases = 7;
            INSERT INTO player_entry_totals VALUES ('gone', 'coins', 'grant', -1);
            INSERT INTO player_purchase_groups VALUES ('gone', 'coins100', 1, 0, -1)
            """)
        let write =
            backfill == 0
            ? LedgerStatement(
                """
                INSERT INTO ledger_entries (player_id, item, amount, kind, balance_after, created_at)
                VALUES ('in-flight', 'coins', 5, 'manual', 0, now())
                """)
            : LedgerStatement(
                "UPDATE purchases SET refunded_share = ? WHERE transaction_id = ?",
                [.integer(Int64(RefundShare.whole)), .text(deliveries[1].transactionId)])
        do {
            try await runBackfill(
                LedgerSchema.playerTotals.postgresBackfills[backfill], behind: write, on: store,
                lockingTable: backfill == 0 ? "player_entry_totals" : "player_purchase_groups")
            // The other backfill repairs the other table's wrong sums.
            try await store.onConnection { connection in
                try await store.run(LedgerSchema.playerTotals.postgresBackfills[1 - backfill], on: connection)
            }
            try await Self.expectKeptAsAddedUp(store)
            _ = try await store.reverse(store: .appStore, transactionId: deliveries[2].transactionId, reason: "REFUND")
            _ = try await store.regrant(store: .appStore, transactionId: deliveries[0].transactionId)
            try await Self.expectKeptAsAddedUp(store)
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// The history of `series`: ``RefundCountsTests/refundsAndReversals(on:series:)`` (whole
    /// and partial refunds, reversals, manual grants and corrections), and purchases of
    /// another product with two items.
    private static func history(on store: any LedgerStore, series: String) async throws {
        try await RefundCountsTests.refundsAndReversals(on: store, series: series)
        for _ in 0..<2 {
            _ = try await store.deliver(
                Fixture.delivery(player: "\(series)-partial", product: "bundle", grants: ["coins": 50, "gems": 3]))
        }
    }

    /// Expects both tables to hold what the reference statements add up, and no row below 0.
    private static func expectKeptAsAddedUp(_ store: any SQLLedgerStore) async throws {
        let entryColumns = (texts: ["player_id", "item", "kind"], integers: ["total"])
        let entries = try await lines(store, entriesKept, entryColumns)
        #expect(entries == (try await lines(store, entriesAddedUp, entryColumns)))
        #expect(!entries.isEmpty)
        let groupColumns = (texts: ["player_id", "product_id"], integers: ["quantity", "refunded_share", "purchases"])
        let groups = try await lines(store, purchasesKept, groupColumns)
        #expect(groups == (try await lines(store, purchasesCounted, groupColumns)))
        #expect(!groups.isEmpty)
        let belowZero = LedgerStatement("SELECT COUNT(*) AS n FROM player_purchase_groups WHERE purchases < 0")
        #expect(try await store.read(.first(belowZero) { try $0.requiredInteger("n") }) == 0)
    }

    /// The rows of `statement`, each as its text columns then its integer columns, joined by
    /// spaces.
    private static func lines(
        _ store: any SQLLedgerStore, _ statement: LedgerStatement, _ columns: (texts: [String], integers: [String])
    ) async throws -> [String] {
        try await store.read(
            .rows(statement) { row in
                let texts = try columns.texts.map { try row.requiredText($0) }
                let integers = try columns.integers.map { String(try row.requiredInteger($0)) }
                return (texts + integers).joined(separator: " ")
            })
    }
}
