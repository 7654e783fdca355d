extension LedgerSchema {
    /// `owed_transactions` (version 17; issue 32, docs/PERFORMANCE.md "Years of history"): one
    /// row per store's transaction that an `awaiting_report` event named while the ledger held
    /// no purchase of it, with the time of its first such event, so that the owed queue
    /// (``LedgerSQL/owedTransactions(learnedBefore:limit:)``) and its count read the owed
    /// transactions, not every `awaiting_report` event the ledger ever recorded (each delivered
    /// transaction the App Store announced first keeps its events for good).
    ///
    /// - `owed_transactions (transaction_id, store, first_seen_at)`: primary key
    ///   (`transaction_id`, `store`), the store as ``LedgerSQL/storeOfEvent`` reads an event's.
    ///   An `AFTER INSERT` trigger on `history_events` adds an `awaiting_report` event's
    ///   transaction when no purchase of it is there, or moves an existing row's
    ///   `first_seen_at` back to the event's time when it is earlier (the least of the two: the
    ///   order in which events arrive does not matter); one on `purchases` deletes the
    ///   purchase's row. Neither table's rows are ever updated in these columns, nor is a
    ///   purchase deleted, so every transaction owed now has every one of its reports counted.
    /// - `owed_transactions_by_first_seen (first_seen_at, transaction_id, store)`: the queue's
    ///   order and its `learnedBefore` bound.
    ///
    /// The table holds no counts, only what merges in any order: on PostgreSQL an event and a
    /// purchase of one transaction written at once by two transactions may each miss the
    /// other's uncommitted row and leave the row of a delivered transaction. The reads
    /// therefore check each row for a purchase (one probe of `purchases`' key per row), and
    /// take the listed rows' last report, attempts and details from their events
    /// (`history_events_by_transaction`). Such a row costs one probe a read.
    ///
    /// Order of the PostgreSQL steps, as for ``knownPlayers``: the migration's transaction
    /// creates the table, its index (on the new, empty table) and the triggers; from its
    /// commit on every new event and purchase keeps the table. Then the backfill walks the
    /// transactions of `awaiting_report` events, 10,000 at a time, each batch its own
    /// transaction, and merges each owed one's first report with `ON CONFLICT … LEAST` (an event
    /// the trigger recorded meanwhile is merged, not counted twice). SQLite does it all in the
    /// migration's transaction, which holds the single writer.
    static let owedTransactions = LedgerMigration(
        version: 17,
        name: "transactions owed, kept as reports and purchases are written",
        sqlite: [
            """
            CREATE TABLE owed_transactions (
                transaction_id TEXT NOT NULL,
                store TEXT NOT NULL,
                first_seen_at INTEGER NOT NULL,
                PRIMARY KEY (transaction_id, store)
            )
            """,
            owedByFirstSeen,
            """
            INSERT INTO owed_transactions (transaction_id, store, first_seen_at)
            SELECT transaction_id, \(LedgerSQL.storeOfEvent), MIN(created_at) FROM history_events
            WHERE type = '\(awaitingReport)' AND transaction_id IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM purchases WHERE purchases.transaction_id = history_events.transaction_id
                AND purchases.store = \(LedgerSQL.storeOfEvent))
            GROUP BY transaction_id, \(LedgerSQL.storeOfEvent)
            """,
            """
            CREATE TRIGGER history_events_owed AFTER INSERT ON history_events
            WHEN new.type = '\(awaitingReport)' AND new.transaction_id IS NOT NULL BEGIN
                \(recordOwed);
            END
            """,
            """
            CREATE TRIGGER purchases_owed AFTER INSERT ON purchases BEGIN
                \(settleOwed);
            END
            """,
        ],
        postgres: [
            """
            CREATE TABLE IF NOT EXISTS owed_transactions (
                transaction_id TEXT NOT NULL,
                store TEXT NOT NULL,
                first_seen_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (transaction_id, store)
            )
            """,
            owedByFirstSeen.replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"),
            """
            CREATE OR REPLACE FUNCTION storekeeper_record_owed() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                \(recordOwed);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_settle_owed() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                \(settleOwed);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER history_events_owed AFTER INSERT ON history_events
            FOR EACH ROW WHEN (NEW.type = '\(awaitingReport)' AND NEW.transaction_id IS NOT NULL)
            EXECUTE FUNCTION storekeeper_record_owed()
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_owed AFTER INSERT ON purchases
            FOR EACH ROW EXECUTE FUNCTION storekeeper_settle_owed()
            """,
        ],
        postgresBackfills: [
            .init(
                batch: """
                    WITH batch AS (
                        SELECT DISTINCT transaction_id FROM history_events
                        WHERE type = '\(awaitingReport)' AND transaction_id >= ? ORDER BY transaction_id LIMIT 10000
                    ), recorded AS (
                        INSERT INTO owed_transactions (transaction_id, store, first_seen_at)
                        SELECT history_events.transaction_id, \(LedgerSQL.storeOfEvent), MIN(history_events.created_at)
                        FROM history_events JOIN batch ON batch.transaction_id = history_events.transaction_id
                        WHERE history_events.type = '\(awaitingReport)' AND NOT EXISTS (
                            SELECT 1 FROM purchases WHERE purchases.transaction_id = history_events.transaction_id
                            AND purchases.store = \(LedgerSQL.storeOfEvent))
                        GROUP BY history_events.transaction_id, \(LedgerSQL.storeOfEvent)
                        ON CONFLICT (transaction_id, store) DO UPDATE
                        SET first_seen_at = LEAST(owed_transactions.first_seen_at, EXCLUDED.first_seen_at)
                    )
                    SELECT max(transaction_id) AS last FROM batch
                    """)
        ]
    )

    /// The event type the table follows, as the migration's SQL names it.
    private static let awaitingReport = HistoryEventType.awaitingReport.rawValue

    /// The index of ``owedTransactions``.
    private static let owedByFirstSeen = """
        CREATE INDEX owed_transactions_by_first_seen ON owed_transactions (first_seen_at, transaction_id, store)
        """

    /// The `history_events` trigger's statement, the same on both databases: records the new
    /// event's transaction when no purchase of it is there, its earliest report kept.
    private static let recordOwed = """
        INSERT INTO owed_transactions (transaction_id, store, first_seen_at)
            SELECT new.transaction_id, \(LedgerSQL.storeOfEvent(row: "new")), new.created_at
            WHERE NOT EXISTS (
                SELECT 1 FROM purchases WHERE purchases.transaction_id = new.transaction_id
                AND purchases.store = \(LedgerSQL.storeOfEvent(row: "new")))
            ON CONFLICT (transaction_id, store) DO UPDATE
            SET first_seen_at = \(leastFirstSeen)
        """

    /// The `purchases` trigger's statement: the purchase's transaction is owed no more.
    private static let settleOwed = """
        DELETE FROM owed_transactions WHERE transaction_id = new.transaction_id AND store = new.store
        """

    /// The earlier of a row's first report and the new one's, in the upsert: SQLite's
    /// two-argument `min` and PostgreSQL's `LEAST` are both spelled here as a `CASE`, the
    /// same text on both.
    private static let leastFirstSeen = """
        CASE WHEN excluded.first_seen_at < owed_transactions.first_seen_at
                THEN excluded.first_seen_at ELSE owed_transactions.first_seen_at END
        """
}
