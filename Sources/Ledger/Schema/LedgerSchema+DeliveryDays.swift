extension LedgerSchema {
    /// `delivery_days` and `delivery_latencies` (version 18; issue 32, docs/PERFORMANCE.md
    /// "Years of history"): how many purchases were delivered on each UTC day by each path,
    /// and how long after Apple's charge, kept as they are written, so that the console's
    /// overview reads rows per day and source (``LedgerSQL/deliveryDays(from:)``) and per
    /// bucket of latency instead of every delivery of its 30 days.
    ///
    /// - `delivery_days (day, source, shard) → deliveries`: `day` is the UTC day of
    ///   `delivered_at`, counted from 1970-01-01 (day 0), the same number the console's
    ///   `DailyCounts.dayNumber` gives a date. An `AFTER INSERT` trigger on `purchases` adds
    ///   one to its row (an upsert); the ledger never deletes a purchase nor changes its
    ///   `delivered_at` or `source`, so the rows of a day and source add up to the count of
    ///   its purchases.
    /// - `shard`: the upsert locks its row until the delivery commits, so deliveries of one
    ///   day and source running at once would wait for each other's commit on a single row
    ///   (PostgreSQL, 32 connections inserting purchases: 2,600–2,900 transactions a second
    ///   without the trigger, 280–350 with a single row). PostgreSQL's trigger writes the row
    ///   of its connection's shard, `pg_backend_pid() % 32`, so that connections of a pool
    ///   rarely share one; the read adds the shards up. SQLite has one writer: shard 0.
    ///   `storekeeper fill-ledger` writes through the same trigger (SQLite's `INSERT`s and
    ///   PostgreSQL's `COPY` both fire it).
    /// - `delivery_latencies (day, lower_bound, shard) → deliveries`: the same deliveries by
    ///   the UTC day of `delivered_at` and the bucket their time from `purchase_date` falls in,
    ///   named by its lower bound in milliseconds (negative times as 0); the buckets are the
    ///   rows of `delivery_latency_buckets`, ``DeliveryLatencyCount/bucketBounds`` (about 4.9%
    ///   wide, the overview's coarse bounds among them), so the overview's latency histogram
    ///   is exact and its median and p99 within 2.5% (the console's `LatencyStatistics`). The same trigger
    ///   adds one to its row, in the same shard; the read
    ///   (``LedgerSQL/deliveryLatencies(from:)``) adds the window's up per bucket.
    /// - Counts, not a list: a day's figure is exact, and the read costs what the window's
    ///   days cost. The overview's revenue (by purchase date) is counted by ``revenueDays``.
    ///
    /// PostgreSQL, without counting a delivery twice or missing one: the migration's
    /// transaction creates the table and the trigger (`CREATE TRIGGER` waits for the
    /// deliveries in progress and holds off new ones until it commits: it does nothing else).
    /// Then the backfill recounts the days from the first delivery on, one day per batch,
    /// each batch a transaction that first locks `delivery_days` and `delivery_latencies`
    /// (`SHARE ROW EXCLUSIVE`:
    /// it waits for every delivery whose trigger has counted and which has not committed,
    /// and a delivery that reaches its trigger meanwhile waits for the batch), then sets the
    /// day's rows to the count of the day's committed purchases. Every count the triggers
    /// made is of a committed purchase, so the recount (kept in shard 0, the day's other
    /// shards deleted) replaces it exactly; a day's
    /// deliveries wait at most one day's recount (an index range of `purchases_by_delivery`).
    /// The batches are safe to run again. SQLite does it all in the migration's transaction,
    /// which holds the single writer.
    static let deliveryDays = LedgerMigration(
        version: 18,
        name: "deliveries counted per day, by source and by time to delivery",
        sqlite: [
            """
            CREATE TABLE delivery_days (
                day INTEGER NOT NULL,
                source TEXT NOT NULL,
                shard INTEGER NOT NULL,
                deliveries INTEGER NOT NULL,
                PRIMARY KEY (day, source, shard)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE delivery_latency_buckets (lower_bound INTEGER PRIMARY KEY) WITHOUT ROWID
            """,
            latencyBucketRows,
            """
            CREATE TABLE delivery_latencies (
                day INTEGER NOT NULL,
                lower_bound INTEGER NOT NULL,
                shard INTEGER NOT NULL,
                deliveries INTEGER NOT NULL,
                PRIMARY KEY (day, lower_bound, shard)
            ) WITHOUT ROWID
            """,
            """
            INSERT INTO delivery_days (day, source, shard, deliveries)
            SELECT \(sqliteDay("delivered_at")) AS day, source, 0, count(*) FROM purchases GROUP BY 1, 2
            """,
            """
            INSERT INTO delivery_latencies (day, lower_bound, shard, deliveries)
            SELECT \(sqliteDay("delivered_at")) AS day, \(sqliteLatencyBucket("")) AS lower_bound, 0, count(*)
            FROM purchases GROUP BY 1, 2
            """,
            """
            CREATE TRIGGER purchases_delivery_day AFTER INSERT ON purchases BEGIN
                INSERT INTO delivery_days (day, source, shard, deliveries)
                VALUES (\(sqliteDay("new.delivered_at")), new.source, 0, 1)
                ON CONFLICT (day, source, shard) DO UPDATE SET deliveries = deliveries + 1;
                INSERT INTO delivery_latencies (day, lower_bound, shard, deliveries)
                VALUES (\(sqliteDay("new.delivered_at")), \(sqliteLatencyBucket("new.")), 0, 1)
                ON CONFLICT (day, lower_bound, shard) DO UPDATE SET deliveries = deliveries + 1;
            END
            """,
        ],
        postgres: [
            """
            CREATE TABLE IF NOT EXISTS delivery_days (
                day BIGINT NOT NULL,
                source TEXT NOT NULL,
                shard INTEGER NOT NULL,
                deliveries BIGINT NOT NULL,
                PRIMARY KEY (day, source, shard)
            )
            """,
            "CREATE TABLE IF NOT EXISTS delivery_latency_buckets (lower_bound BIGINT PRIMARY KEY)",
            latencyBucketRows + " ON CONFLICT (lower_bound) DO NOTHING",
            """
            CREATE TABLE IF NOT EXISTS delivery_latencies (
                day BIGINT NOT NULL,
                lower_bound BIGINT NOT NULL,
                shard INTEGER NOT NULL,
                deliveries BIGINT NOT NULL,
                PRIMARY KEY (day, lower_bound, shard)
            )
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_count_delivery_day() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO delivery_days (day, source, shard, deliveries)
                VALUES (\(postgresDay("NEW.delivered_at")), NEW.source, pg_backend_pid() % 32, 1)
                ON CONFLICT (day, source, shard) DO UPDATE SET deliveries = delivery_days.deliveries + 1;
                INSERT INTO delivery_latencies (day, lower_bound, shard, deliveries)
                VALUES (\(postgresDay("NEW.delivered_at")), \(postgresLatencyBucket("NEW.")), pg_backend_pid() % 32, 1)
                ON CONFLICT (day, lower_bound, shard) DO UPDATE SET deliveries = delivery_latencies.deliveries + 1;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_delivery_day AFTER INSERT ON purchases
            FOR EACH ROW EXECUTE FUNCTION storekeeper_count_delivery_day()
            """,
        ],
        postgresBackfills: [
            .init(
                batch: """
                    WITH \(postgresBatchDay(clearing: "delivery_days", dayColumn: "day")), counted AS (
                        INSERT INTO delivery_days (day, source, shard, deliveries)
                        SELECT first.day, purchases.source, 0, count(*) FROM first, purchases
                        WHERE purchases.delivered_at >= to_timestamp(first.day * 86400)
                            AND purchases.delivered_at < to_timestamp((first.day + 1) * 86400)
                        GROUP BY first.day, purchases.source
                        ON CONFLICT (day, source, shard) DO UPDATE SET deliveries = EXCLUDED.deliveries
                    ), cleared_latencies AS (
                        DELETE FROM delivery_latencies USING first
                        WHERE delivery_latencies.day = first.day AND delivery_latencies.shard <> 0
                    ), counted_latencies AS (
                        INSERT INTO delivery_latencies (day, lower_bound, shard, deliveries)
                        SELECT first.day, \(postgresLatencyBucket("purchases.")) AS lower_bound, 0, count(*)
                        FROM first, purchases
                        WHERE purchases.delivered_at >= to_timestamp(first.day * 86400)
                            AND purchases.delivered_at < to_timestamp((first.day + 1) * 86400)
                        GROUP BY 1, 2
                        ON CONFLICT (day, lower_bound, shard) DO UPDATE SET deliveries = EXCLUDED.deliveries
                    )
                    SELECT CAST(day + 1 AS TEXT) AS last FROM first
                    """,
                lock: "LOCK TABLE delivery_days, delivery_latencies IN SHARE ROW EXCLUSIVE MODE")
        ]
    )

    /// The rows of `delivery_latency_buckets`: ``DeliveryLatencyCount/bucketBounds``.
    static var latencyBucketRows: String {
        "INSERT INTO delivery_latency_buckets (lower_bound) VALUES "
            + DeliveryLatencyCount.bucketBounds.map { "(\($0))" }.joined(separator: ", ")
    }

    /// The lower bound of the latency bucket of the purchase whose columns are prefixed
    /// `row` (`new.`, or `""` in a query of `purchases`): the greatest bound at or below its
    /// milliseconds from `purchase_date` to `delivered_at` (negative ones as 0), SQLite's
    /// milliseconds; a step down the primary key of `delivery_latency_buckets`.
    static func sqliteLatencyBucket(_ row: String) -> String {
        """
        (SELECT lower_bound FROM delivery_latency_buckets \
        WHERE lower_bound <= max(\(row)delivered_at - \(row)purchase_date, 0) ORDER BY lower_bound DESC LIMIT 1)
        """
    }

    /// ``sqliteLatencyBucket(_:)`` for PostgreSQL's `timestamptz` (the ledger keeps
    /// milliseconds, so the difference is a whole number of them).
    static func postgresLatencyBucket(_ row: String) -> String {
        """
        (SELECT lower_bound FROM delivery_latency_buckets \
        WHERE lower_bound <= GREATEST(CAST(floor(extract(epoch FROM \(row)delivered_at - \(row)purchase_date) * 1000) \
        AS BIGINT), 0) ORDER BY lower_bound DESC LIMIT 1)
        """
    }

    /// The UTC day (from 1970-01-01, rounded down) of `column`, SQLite's milliseconds.
    static func sqliteDay(_ column: String) -> String {
        "(\(column) - ((\(column) % 86400000) + 86400000) % 86400000) / 86400000"
    }

    /// The first two common table expressions of a PostgreSQL backfill batch that recounts
    /// one UTC day of deliveries (migrations 18 and 20): `first`, the day of the first
    /// delivery at or after the cursor's day (its one parameter; empty text for the first
    /// batch), and `cleared`, which deletes that day's rows of `table` (its day in
    /// `dayColumn`) from every shard but 0, the one the batch writes. Laid out as the batches'
    /// own lines, so that the shipped migrations' text, and their fingerprints, stay the same.
    static func postgresBatchDay(clearing table: String, dayColumn: String) -> String {
        """
        first AS (
            SELECT \(postgresDay("delivered_at")) AS day FROM purchases
            WHERE delivered_at >= COALESCE(
                to_timestamp(CAST(NULLIF(CAST(? AS TEXT), '') AS BIGINT) * 86400), '-infinity')
            ORDER BY delivered_at LIMIT 1
        ), cleared AS (
            DELETE FROM \(table) USING first
            WHERE \(table).\(dayColumn) = first.day AND \(table).shard <> 0
        )
        """
    }

    /// The UTC day (from 1970-01-01, rounded down) of `column`, a PostgreSQL `timestamptz`.
    static func postgresDay(_ column: String) -> String {
        "CAST(floor(extract(epoch FROM \(column)) / 86400) AS BIGINT)"
    }
}
