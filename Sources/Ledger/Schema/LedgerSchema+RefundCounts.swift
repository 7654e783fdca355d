extension LedgerSchema {
    /// `player_refunds` (version 19; issue 32, docs/PERFORMANCE.md "Years of history"): how
    /// many refunded purchases (`refunded_share > 0`, in whole or in part) each player has,
    /// kept as purchases are written, so that the console's refund signals
    /// (``LedgerSQL/refundSignals(minimumRefunds:limit:)``) read the players with the most
    /// from an index instead of grouping every refunded purchase of the ledger by player.
    ///
    /// - `player_refunds (player_id) → refunded_purchases`: an `AFTER INSERT` trigger on
    ///   `purchases` adds one for a purchase inserted refunded (`storekeeper fill-ledger`
    ///   writes them so; SQLite's `INSERT`s and PostgreSQL's `COPY` both fire it), and an
    ///   `AFTER UPDATE OF refunded_share` trigger adds one when a purchase becomes refunded
    ///   and takes one when a reversal brings its share back to 0 (a change between two
    ///   shares above 0 changes nothing). The ledger never deletes a purchase nor changes its
    ///   `player_id` (its only `UPDATE`s of `purchases` set the refund state and the flags),
    ///   so each player's row is the count of their refunded purchases. A row may reach 0
    ///   and stay: the reads ask for at least one.
    /// - `player_refunds_by_count (refunded_purchases DESC, player_id)`: the read's order,
    ///   so that the players with the most are the index's first entries.
    ///
    /// PostgreSQL, without counting a refund twice or missing one (as ``deliveryDays``): the
    /// migration's transaction creates the table, its index and the triggers (`CREATE
    /// TRIGGER` waits for the writes to `purchases` in progress and holds off new ones until
    /// it commits). Then the backfill recounts the players with a refunded purchase in key
    /// order, 1,000 players per batch (from `purchases_refunded_by_player`, only refunded
    /// purchases), each batch a transaction that first locks `player_refunds` (`SHARE ROW
    /// EXCLUSIVE`: it waits for every write whose trigger has counted and which has not
    /// committed, and a write that reaches its trigger meanwhile waits for the batch), then
    /// sets the rows of the batch's range of player ids to the committed count and deletes
    /// the range's other rows (a reversal of a refund made before the migration leaves a
    /// row of -1 until then). The last batch's range is open-ended. The batches are safe to
    /// run again. SQLite does it all in the migration's transaction, which holds the single
    /// writer.
    static let refundCounts = LedgerMigration(
        version: 19,
        name: "refunded purchases counted per player",
        sqlite: [
            """
            CREATE TABLE player_refunds (
                player_id TEXT PRIMARY KEY,
                refunded_purchases INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            playerRefundsByCount,
            """
            INSERT INTO player_refunds (player_id, refunded_purchases)
            SELECT player_id, count(*) FROM purchases WHERE refunded_share > 0 GROUP BY player_id
            """,
            """
            CREATE TRIGGER purchases_refund_inserted AFTER INSERT ON purchases
            WHEN new.refunded_share > 0 BEGIN
                INSERT INTO player_refunds (player_id, refunded_purchases) VALUES (new.player_id, 1)
                ON CONFLICT (player_id) DO UPDATE SET refunded_purchases = refunded_purchases + 1;
            END
            """,
            """
            CREATE TRIGGER purchases_refund_changed AFTER UPDATE OF refunded_share ON purchases
            WHEN (old.refunded_share > 0) <> (new.refunded_share > 0) BEGIN
                INSERT INTO player_refunds (player_id, refunded_purchases)
                VALUES (new.player_id, CASE WHEN new.refunded_share > 0 THEN 1 ELSE -1 END)
                ON CONFLICT (player_id) DO UPDATE
                SET refunded_purchases = refunded_purchases + excluded.refunded_purchases;
            END
            """,
        ],
        postgres: [
            """
            CREATE TABLE IF NOT EXISTS player_refunds (
                player_id TEXT PRIMARY KEY,
                refunded_purchases BIGINT NOT NULL
            )
            """,
            playerRefundsByCount.replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"),
            """
            CREATE OR REPLACE FUNCTION storekeeper_count_player_refund() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO player_refunds (player_id, refunded_purchases)
                VALUES (NEW.player_id, CASE WHEN NEW.refunded_share > 0 THEN 1 ELSE -1 END)
                ON CONFLICT (player_id) DO UPDATE
                SET refunded_purchases = player_refunds.refunded_purchases + EXCLUDED.refunded_purchases;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_refund_inserted AFTER INSERT ON purchases
            FOR EACH ROW WHEN (NEW.refunded_share > 0) EXECUTE FUNCTION storekeeper_count_player_refund()
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_refund_changed AFTER UPDATE OF refunded_share ON purchases
            FOR EACH ROW WHEN ((OLD.refunded_share > 0) <> (NEW.refunded_share > 0))
            EXECUTE FUNCTION storekeeper_count_player_refund()
            """,
        ],
        postgresBackfills: [
            .init(
                batch: """
                    WITH start AS (
                        SELECT CAST(? AS TEXT) AS player_id
                    ), players AS (
                        SELECT DISTINCT purchases.player_id FROM purchases, start
                        WHERE purchases.refunded_share > 0 AND purchases.player_id >= start.player_id
                        ORDER BY purchases.player_id LIMIT 1000
                    ), range AS (
                        SELECT start.player_id AS first,
                            CASE WHEN (SELECT count(*) FROM players) = 1000
                                THEN (SELECT max(player_id) FROM players) END AS last
                        FROM start
                    ), counted AS (
                        SELECT purchases.player_id, count(*) AS refunded_purchases FROM purchases, range
                        WHERE purchases.refunded_share > 0 AND purchases.player_id >= range.first
                            AND (range.last IS NULL OR purchases.player_id <= range.last)
                        GROUP BY purchases.player_id
                    ), cleared AS (
                        DELETE FROM player_refunds USING range
                        WHERE player_refunds.player_id >= range.first
                            AND (range.last IS NULL OR player_refunds.player_id <= range.last)
                            AND player_refunds.player_id NOT IN (SELECT player_id FROM counted)
                    ), written AS (
                        INSERT INTO player_refunds (player_id, refunded_purchases)
                        SELECT player_id, refunded_purchases FROM counted
                        ON CONFLICT (player_id) DO UPDATE SET refunded_purchases = EXCLUDED.refunded_purchases
                    )
                    SELECT max(player_id) AS last FROM players
                    """,
                lock: "LOCK TABLE player_refunds IN SHARE ROW EXCLUSIVE MODE")
        ]
    )

    /// The index of `player_refunds` in the refund signals' order.
    private static let playerRefundsByCount =
        "CREATE INDEX player_refunds_by_count ON player_refunds (refunded_purchases DESC, player_id)"
}
