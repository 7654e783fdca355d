extension LedgerSchema {
    /// `player_entry_totals` and `player_purchase_groups` (version 24; issue 32,
    /// docs/PERFORMANCE.md "Years of history"): the sums that explain a player's wallet on the
    /// player page (``LedgerSQL/entryTotals(playerId:)``, ``LedgerSQL/purchaseGroups(playerId:)``),
    /// kept as entries and purchases are written, so that the page reads a few rows per player
    /// instead of adding up every entry and purchase of the player (a whale's 50,000
    /// purchases: 38 and 32 ms cold on PostgreSQL at 10M, and a heap page per row in a
    /// ledger whose rows of one player lie apart).
    ///
    /// - `player_entry_totals (player_id, item, kind) → total`: an `AFTER INSERT` trigger on
    ///   `ledger_entries` adds the entry's amount. The ledger never changes nor deletes an
    ///   entry, so each row is the sum of the player's entries of that item and kind.
    /// - `player_purchase_groups (player_id, product_id, quantity, refunded_share) →
    ///   purchases`: an `AFTER INSERT` trigger on `purchases` counts the purchase in its
    ///   group, and an `AFTER UPDATE OF refunded_share` trigger moves it from its old share's
    ///   group to its new one's. The ledger never deletes a purchase nor changes its player,
    ///   product or quantity (its only `UPDATE`s of `purchases` set the refund state and the
    ///   flags), so each row counts the player's purchases of that group. A row may reach 0
    ///   and stay: the read leaves those out. On PostgreSQL the move writes the group of the
    ///   smaller share first, so that a refund and a reversal of two purchases of one group
    ///   lock the two rows in the same order (the other order would deadlock).
    ///
    /// PostgreSQL, without adding an entry or a purchase twice or missing one (as
    /// ``refundCounts``): the migration's transaction creates the tables and the triggers
    /// (`CREATE TRIGGER` waits for the writes in progress and holds off new ones until it
    /// commits). Then each backfill recounts the players in key order, 1,000 players of
    /// `known_players` per batch (the range between them, so a player missing there is
    /// counted too), each batch a transaction that first locks its table (`SHARE ROW
    /// EXCLUSIVE`: it waits for every write whose trigger has added and which has not
    /// committed, and a write that reaches its trigger meanwhile waits for the batch), then
    /// sets the rows of the batch's range to the committed sums and deletes the range's other
    /// rows. The last batch's range ends at the greatest player of the table it reads (or
    /// writes, for the rows it deletes); the batches are safe to run again. SQLite does it
    /// all in the migration's transaction, which holds the single writer.
    ///
    /// A bulk load (`storekeeper fill-ledger`) suspends the triggers, which would add to a
    /// row per entry loaded, and fills both tables once at its end (``bulkLoadRebuilds``).
    static let playerTotals = LedgerMigration(
        version: 24,
        name: "a player's sums kept",
        sqlite: [
            """
            CREATE TABLE player_entry_totals (
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                kind TEXT NOT NULL,
                total INTEGER NOT NULL,
                PRIMARY KEY (player_id, item, kind)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE player_purchase_groups (
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                quantity INTEGER NOT NULL,
                refunded_share INTEGER NOT NULL,
                purchases INTEGER NOT NULL,
                PRIMARY KEY (player_id, product_id, quantity, refunded_share)
            ) WITHOUT ROWID
            """,
            fillEntryTotals,
            fillPurchaseGroups,
            """
            CREATE TRIGGER \(entryTrigger) AFTER INSERT ON ledger_entries BEGIN
                \(addEntry);
            END
            """,
            """
            CREATE TRIGGER \(purchaseTrigger) AFTER INSERT ON purchases BEGIN
                \(countPurchase(of: "new", 1));
            END
            """,
            """
            CREATE TRIGGER \(refundTrigger) AFTER UPDATE OF refunded_share ON purchases
            WHEN old.refunded_share <> new.refunded_share BEGIN
                \(countPurchase(of: "old", -1));
                \(countPurchase(of: "new", 1));
            END
            """,
        ],
        postgres: [
            """
            CREATE TABLE IF NOT EXISTS player_entry_totals (
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                kind TEXT NOT NULL,
                total BIGINT NOT NULL,
                PRIMARY KEY (player_id, item, kind)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS player_purchase_groups (
                player_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                refunded_share INTEGER NOT NULL,
                purchases BIGINT NOT NULL,
                PRIMARY KEY (player_id, product_id, quantity, refunded_share)
            )
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_add_player_entry() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                \(addEntry);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_count_player_purchase() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                \(countPurchase(of: "new", 1));
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_move_player_purchase() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                IF old.refunded_share < new.refunded_share THEN
                    \(countPurchase(of: "old", -1));
                    \(countPurchase(of: "new", 1));
                ELSE
                    \(countPurchase(of: "new", 1));
                    \(countPurchase(of: "old", -1));
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER \(entryTrigger) AFTER INSERT ON ledger_entries
            FOR EACH ROW EXECUTE FUNCTION storekeeper_add_player_entry()
            """,
            """
            CREATE OR REPLACE TRIGGER \(purchaseTrigger) AFTER INSERT ON purchases
            FOR EACH ROW EXECUTE FUNCTION storekeeper_count_player_purchase()
            """,
            """
            CREATE OR REPLACE TRIGGER \(refundTrigger) AFTER UPDATE OF refunded_share ON purchases
            FOR EACH ROW WHEN (OLD.refunded_share <> NEW.refunded_share)
            EXECUTE FUNCTION storekeeper_move_player_purchase()
            """,
        ],
        postgresBackfills: [
            .init(
                batch: recount(
                    into: "player_entry_totals", key: ["item", "kind"], value: "total",
                    from: "ledger_entries", sum: "CAST(SUM(amount) AS BIGINT)"),
                lock: "LOCK TABLE player_entry_totals IN SHARE ROW EXCLUSIVE MODE"),
            .init(
                batch: recount(
                    into: "player_purchase_groups", key: ["product_id", "quantity", "refunded_share"],
                    value: "purchases", from: "purchases", sum: "COUNT(*)"),
                lock: "LOCK TABLE player_purchase_groups IN SHARE ROW EXCLUSIVE MODE"),
        ]
    )

    /// The triggers of ``playerTotals`` and the statements that fill their tables, for a
    /// bulk load.
    static let playerTotalsRebuilds = [
        BulkLoadRebuild(
            table: "player_entry_totals", triggers: [.init(table: "ledger_entries", name: entryTrigger)],
            statement: fillEntryTotals),
        BulkLoadRebuild(
            table: "player_purchase_groups",
            triggers: [
                .init(table: "purchases", name: purchaseTrigger), .init(table: "purchases", name: refundTrigger),
            ],
            statement: fillPurchaseGroups),
    ]

    /// The `ledger_entries` trigger of ``playerTotals``.
    private static let entryTrigger = "ledger_entries_player_total"
    /// The `purchases` triggers of ``playerTotals``: a purchase written, its share changed.
    private static let purchaseTrigger = "purchases_player_group"
    private static let refundTrigger = "purchases_player_group_refund"

    /// The entry trigger's statement, the same on both databases.
    private static let addEntry = """
        INSERT INTO player_entry_totals (player_id, item, kind, total)
                VALUES (new.player_id, new.item, new.kind, new.amount)
                ON CONFLICT (player_id, item, kind)
                DO UPDATE SET total = player_entry_totals.total + excluded.total
        """

    /// Adds `delta` to the group of the purchase row `row` (`new` or `old`), the same on both
    /// databases.
    private static func countPurchase(of row: String, _ delta: Int) -> String {
        """
        INSERT INTO player_purchase_groups (player_id, product_id, quantity, refunded_share, purchases)
                VALUES (\(row).player_id, \(row).product_id, \(row).quantity, \(row).refunded_share, \(delta))
                ON CONFLICT (player_id, product_id, quantity, refunded_share)
                DO UPDATE SET purchases = player_purchase_groups.purchases + excluded.purchases
        """
    }

    /// Every player's sums of entries, into the table (SQLite's migration; a bulk load's end).
    /// `WHERE true` keeps SQLite from reading `ON CONFLICT` as a join's constraint.
    private static let fillEntryTotals = """
        INSERT INTO player_entry_totals (player_id, item, kind, total)
        SELECT player_id, item, kind, CAST(SUM(amount) AS BIGINT) FROM ledger_entries WHERE true
        GROUP BY player_id, item, kind
        ON CONFLICT (player_id, item, kind) DO UPDATE SET total = excluded.total
        """

    /// Every player's purchases counted per group, into the table.
    private static let fillPurchaseGroups = """
        INSERT INTO player_purchase_groups (player_id, product_id, quantity, refunded_share, purchases)
        SELECT player_id, product_id, quantity, refunded_share, COUNT(*) FROM purchases WHERE true
        GROUP BY player_id, product_id, quantity, refunded_share
        ON CONFLICT (player_id, product_id, quantity, refunded_share) DO UPDATE SET purchases = excluded.purchases
        """

    /// A PostgreSQL backfill batch of `table`: the range from the batch's first player to the
    /// 1,000th of `known_players` from there (to the greatest player of `source` when fewer
    /// are left) recounted from `source` per player and `key` (`sum` the `value`), the
    /// range's other rows deleted. The bounds are scalar subqueries, which the planner reads
    /// as the bounds of an index range: joined from a row of a `WITH` part, or open-ended
    /// through an `OR`, they made each batch read `known_players` from its start and
    /// `source` whole (3 s a batch at 10M).
    private static func recount(into table: String, key: [String], value: String, from source: String, sum: String)
        -> String
    {
        let columns = (["player_id"] + key).joined(separator: ", ")
        let sourceColumns = (["\(source).player_id"] + key.map { "\(source).\($0)" }).joined(separator: ", ")
        let inRange = { (table: String) in
            """
            \(table).player_id >= (SELECT first FROM range)
                    AND \(table).player_id <= COALESCE((SELECT last FROM range), (SELECT max(player_id) FROM \(table)))
            """
        }
        return """
            WITH start AS (
                SELECT CAST(? AS TEXT) AS player_id
            ), players AS (
                SELECT player_id FROM known_players WHERE player_id >= (SELECT player_id FROM start)
                ORDER BY player_id LIMIT 1000
            ), range AS (
                SELECT (SELECT player_id FROM start) AS first,
                    CASE WHEN (SELECT count(*) FROM players) = 1000 THEN (SELECT max(player_id) FROM players) END AS last
            ), counted AS (
                SELECT \(sourceColumns), \(sum) AS \(value) FROM \(source)
                WHERE \(inRange(source))
                GROUP BY \(sourceColumns)
            ), cleared AS (
                DELETE FROM \(table)
                WHERE \(inRange(table))
                    AND (\(key.reduce("\(table).player_id") { "\($0), \(table).\($1)" })) NOT IN (
                        SELECT \(columns) FROM counted)
            ), written AS (
                INSERT INTO \(table) (\(columns), \(value))
                SELECT \(columns), \(value) FROM counted
                ON CONFLICT (\(columns)) DO UPDATE SET \(value) = EXCLUDED.\(value)
            )
            SELECT max(player_id) AS last FROM players
            """
    }
}
