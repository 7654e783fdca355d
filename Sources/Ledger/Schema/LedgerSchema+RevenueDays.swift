extension LedgerSchema {
    /// `purchase_days` and `refund_days` (version 20; issue 32, docs/PERFORMANCE.md "Years of
    /// history"): the purchases of each day by product and quantity, and the refunds of each
    /// day by product, quantity and refunded share, kept as purchases are written, so that the
    /// console's overview counts its revenue from rows per day
    /// (``LedgerSQL/purchaseDays(from:)``, ``LedgerSQL/refundDays(from:)``) instead of every
    /// delivery and every refunded purchase of its 30 days.
    ///
    /// - `purchase_days (delivered_day, day, product_id, quantity, shard) → purchases`: `day`
    ///   is the UTC day of Apple's `purchase_date` (the day the overview's gross counts a
    ///   purchase on), `delivered_day` that of `delivered_at` (the overview counts the
    ///   purchases delivered in its window: those of a late delivery whose purchase date falls
    ///   before the window are left out, as they always were); both counted from 1970-01-01
    ///   as ``LedgerSchema/deliveryDays`` counts them. An `AFTER INSERT` trigger on
    ///   `purchases` adds one to its row; the ledger never deletes a purchase nor changes
    ///   these columns, so the rows add up to the count of the purchases.
    /// - `refund_days (day, product_id, quantity, refunded_share, shard) → purchases`: the
    ///   purchases refunded (`refunded_share > 0` and a `refunded_at`) by the UTC day of
    ///   `refunded_at` and their share as it stands now. The `AFTER INSERT` trigger adds one
    ///   for a purchase inserted refunded (`storekeeper fill-ledger`), and an `AFTER UPDATE
    ///   OF refunded_share, refunded_at` trigger moves a purchase from its old day and share
    ///   to its new ones (a refund, a share raised, a reversal back to 0, a staff give-back):
    ///   one less in the old row, one more in the new, a single upsert of both rows, in key
    ///   order (``refundDayMove(day:shard:rows:)``). A row may reach 0 and stay: the read leaves
    ///   such rows out.
    /// - Grouping by product, quantity and share keeps the overview's amounts exactly what
    ///   counting purchase by purchase gives: each purchase's amount (the list price of its
    ///   quantity, and the share of it rounded down) depends on nothing else.
    /// - `shard`: as ``LedgerSchema/deliveryDays``, PostgreSQL's triggers write the row of
    ///   their connection's shard, `pg_backend_pid() % 32`, so that concurrent writes rarely
    ///   wait on one row; the reads add the shards up. SQLite has one writer: shard 0.
    ///
    /// PostgreSQL, without counting a purchase or a refund twice or missing one (as
    /// ``LedgerSchema/deliveryDays``): the migration's transaction creates the tables and the
    /// triggers; then two backfills, each locking its one table (`SHARE ROW EXCLUSIVE`, so
    /// that no backfill holds one table while waiting for another: the triggers write
    /// `purchase_days` before `refund_days`, and a refund's trigger only `refund_days`).
    /// `purchase_days` is recounted one delivery day per batch (an index range of
    /// `purchases_by_delivery`), the day's other shards deleted. `refund_days` is recounted one
    /// refund day per batch (an index range of `purchases_refunded_by_time`), and the batch
    /// also deletes the rows of the days between the batch before and its own that no
    /// committed refund holds (a reversal of a refund made before the migration leaves a row
    /// of -1 until then); the last batch clears every later day. A write in flight whose
    /// trigger has not yet run when a batch reads the purchases moves its rows from the state
    /// the batch counted, after the batch commits. The batches are safe to run again. SQLite
    /// does it all in the migration's transaction, which holds the single writer.
    static let revenueDays = LedgerMigration(
        version: 20,
        name: "purchases and refunds counted per day, by product, quantity and share",
        sqlite: [
            """
            CREATE TABLE purchase_days (
                delivered_day INTEGER NOT NULL,
                day INTEGER NOT NULL,
                product_id TEXT NOT NULL,
                quantity INTEGER NOT NULL,
                shard INTEGER NOT NULL,
                purchases INTEGER NOT NULL,
                PRIMARY KEY (delivered_day, day, product_id, quantity, shard)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE refund_days (
                day INTEGER NOT NULL,
                product_id TEXT NOT NULL,
                quantity INTEGER NOT NULL,
                refunded_share INTEGER NOT NULL,
                shard INTEGER NOT NULL,
                purchases INTEGER NOT NULL,
                PRIMARY KEY (day, product_id, quantity, refunded_share, shard)
            ) WITHOUT ROWID
            """,
            """
            INSERT INTO purchase_days (delivered_day, day, product_id, quantity, shard, purchases)
            SELECT \(sqliteDay("delivered_at")), \(sqliteDay("purchase_date")), product_id, quantity, 0, count(*)
            FROM purchases GROUP BY 1, 2, 3, 4
            """,
            """
            INSERT INTO refund_days (day, product_id, quantity, refunded_share, shard, purchases)
            SELECT \(sqliteDay("refunded_at")), product_id, quantity, refunded_share, 0, count(*)
            FROM purchases WHERE refunded_share > 0 AND refunded_at IS NOT NULL GROUP BY 1, 2, 3, 4
            """,
            """
            CREATE TRIGGER purchases_revenue_day AFTER INSERT ON purchases BEGIN
                \(purchaseDayCount(day: sqliteDay, shard: "0"));
                \(refundDayMove(day: sqliteDay, shard: "0", rows: ["new"]));
            END
            """,
            """
            CREATE TRIGGER purchases_revenue_refund AFTER UPDATE OF refunded_share, refunded_at ON purchases BEGIN
                \(refundDayMove(day: sqliteDay, shard: "0", rows: ["old", "new"]));
            END
            """,
        ],
        postgres: [
            """
            CREATE TABLE IF NOT EXISTS purchase_days (
                delivered_day BIGINT NOT NULL,
                day BIGINT NOT NULL,
                product_id TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                shard INTEGER NOT NULL,
                purchases BIGINT NOT NULL,
                PRIMARY KEY (delivered_day, day, product_id, quantity, shard)
            )
            """,
            """
            CREATE TABLE IF NOT EXISTS refund_days (
                day BIGINT NOT NULL,
                product_id TEXT NOT NULL,
                quantity BIGINT NOT NULL,
                refunded_share BIGINT NOT NULL,
                shard INTEGER NOT NULL,
                purchases BIGINT NOT NULL,
                PRIMARY KEY (day, product_id, quantity, refunded_share, shard)
            )
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_count_revenue_day() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                \(purchaseDayCount(day: postgresDay, shard: "pg_backend_pid() % 32"));
                \(refundDayMove(day: postgresDay, shard: "pg_backend_pid() % 32", rows: ["new"]));
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_move_refund_day() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                \(refundDayMove(day: postgresDay, shard: "pg_backend_pid() % 32", rows: ["old", "new"]));
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_revenue_day AFTER INSERT ON purchases
            FOR EACH ROW EXECUTE FUNCTION storekeeper_count_revenue_day()
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_revenue_refund AFTER UPDATE OF refunded_share, refunded_at ON purchases
            FOR EACH ROW WHEN (OLD.refunded_share IS DISTINCT FROM NEW.refunded_share
                OR OLD.refunded_at IS DISTINCT FROM NEW.refunded_at)
            EXECUTE FUNCTION storekeeper_move_refund_day()
            """,
        ],
        postgresBackfills: [
            .init(
                batch: """
                    WITH \(postgresBatchDay(clearing: "purchase_days", dayColumn: "delivered_day")), counted AS (
                        INSERT INTO purchase_days (delivered_day, day, product_id, quantity, shard, purchases)
                        SELECT first.day, \(postgresDay("purchases.purchase_date")), purchases.product_id,
                            purchases.quantity, 0, count(*)
                        FROM first, purchases
                        WHERE purchases.delivered_at >= to_timestamp(first.day * 86400)
                            AND purchases.delivered_at < to_timestamp((first.day + 1) * 86400)
                        GROUP BY 1, 2, 3, 4
                        ON CONFLICT (delivered_day, day, product_id, quantity, shard)
                        DO UPDATE SET purchases = EXCLUDED.purchases
                    )
                    SELECT CAST(day + 1 AS TEXT) AS last FROM first
                    """,
                lock: "LOCK TABLE purchase_days IN SHARE ROW EXCLUSIVE MODE"),
            .init(
                batch: """
                    WITH start AS (
                        SELECT CAST(NULLIF(CAST(? AS TEXT), '') AS BIGINT) AS day
                    ), first AS (
                        SELECT \(postgresDay("purchases.refunded_at")) AS day FROM purchases, start
                        WHERE purchases.refunded_share > 0
                            AND purchases.refunded_at >= COALESCE(to_timestamp(start.day * 86400), '-infinity')
                        ORDER BY purchases.refunded_at LIMIT 1
                    ), counted AS (
                        SELECT first.day, purchases.product_id, purchases.quantity, purchases.refunded_share,
                            count(*) AS purchases
                        FROM first, purchases
                        WHERE purchases.refunded_share > 0
                            AND purchases.refunded_at >= to_timestamp(first.day * 86400)
                            AND purchases.refunded_at < to_timestamp((first.day + 1) * 86400)
                        GROUP BY 1, 2, 3, 4
                    ), cleared AS (
                        DELETE FROM refund_days USING start
                        WHERE (start.day IS NULL OR refund_days.day >= start.day)
                            AND (NOT EXISTS (SELECT 1 FROM first) OR refund_days.day <= (SELECT day FROM first))
                            AND NOT (refund_days.shard = 0 AND EXISTS (
                                SELECT 1 FROM counted WHERE counted.day = refund_days.day
                                    AND counted.product_id = refund_days.product_id
                                    AND counted.quantity = refund_days.quantity
                                    AND counted.refunded_share = refund_days.refunded_share))
                    ), written AS (
                        INSERT INTO refund_days (day, product_id, quantity, refunded_share, shard, purchases)
                        SELECT day, product_id, quantity, refunded_share, 0, purchases FROM counted
                        ON CONFLICT (day, product_id, quantity, refunded_share, shard)
                        DO UPDATE SET purchases = EXCLUDED.purchases
                    )
                    SELECT CAST(day + 1 AS TEXT) AS last FROM first
                    """,
                lock: "LOCK TABLE refund_days IN SHARE ROW EXCLUSIVE MODE"),
        ]
    )

    /// The trigger statement that adds the purchase `new` to its row of `purchase_days`; `day`
    /// gives the UTC day of a column (``sqliteDay(_:)``, ``postgresDay(_:)``), `shard` the
    /// row's shard.
    private static func purchaseDayCount(day: (String) -> String, shard: String) -> String {
        """
        INSERT INTO purchase_days (delivered_day, day, product_id, quantity, shard, purchases)
            VALUES (\(day("new.delivered_at")), \(day("new.purchase_date")), new.product_id, new.quantity, \(shard), 1)
            ON CONFLICT (delivered_day, day, product_id, quantity, shard)
            DO UPDATE SET purchases = purchase_days.purchases + 1
        """
    }

    /// The trigger statement that moves the purchase from its row of `refund_days` as `old`
    /// stood (when `rows` holds `old` and it was refunded) to its row as `new` stands (when it
    /// is refunded): one upsert of both rows in key order, the two merged when they are the
    /// same row (nothing written when that leaves no change). `rows` is `["new"]` in an
    /// `INSERT` trigger (SQLite has no `old` there), `["old", "new"]` in an `UPDATE` one.
    private static func refundDayMove(day: (String) -> String, shard: String, rows: [String]) -> String {
        func refunded(_ row: String) -> String {
            """
            SELECT CASE WHEN \(row).refunded_share > 0 THEN \(day("\(row).refunded_at")) END AS day, \
            \(row).refunded_share AS share, \(row == "old" ? -1 : 1) AS change
            """
        }
        return """
            INSERT INTO refund_days (day, product_id, quantity, refunded_share, shard, purchases)
                SELECT moved.day, new.product_id, new.quantity, moved.share, \(shard), sum(moved.change)
                FROM (\(rows.map(refunded).joined(separator: " UNION ALL "))) AS moved
                WHERE moved.day IS NOT NULL
                GROUP BY moved.day, moved.share HAVING sum(moved.change) <> 0
                ORDER BY moved.day, moved.share
                ON CONFLICT (day, product_id, quantity, refunded_share, shard)
                DO UPDATE SET purchases = refund_days.purchases + excluded.purchases
            """
    }
}
