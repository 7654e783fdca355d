extension LedgerSchema {
    /// `player_unowned_events` and `history_events_by_player_id` (version 22; issue 32,
    /// docs/PERFORMANCE.md "Years of history"): a player's timeline
    /// (``LedgerSQL/timeline(playerId:after:limit:)``,
    /// ``LedgerSQL/timelineNewestFirst(playerId:beforeId:limit:types:dialect:)``) read a page at a
    /// time from indexes in the page's order, however long the player's history. Before it,
    /// each page probed `history_events_unowned` once per purchase of the player and sorted
    /// every event it found, and its newest-first reads sorted all of the player's own events
    /// by id: 0.9 s a page for a player with 50,000 purchases on PostgreSQL at 10M.
    ///
    /// - `player_unowned_events (player_id, created_at, event_id, type)`: one row per
    ///   player-less event (a notification, the App Store's finishing, a report awaited) of a
    ///   transaction delivered to the player: the event's store (``LedgerSQL/storeOfEvent``)
    ///   and transaction id are the purchase's. Primary key in the forward timeline's order;
    ///   `player_unowned_events_by_id (player_id, event_id, type)` in the newest-first order,
    ///   the type in it so that a read of some types skips the others without reading their
    ///   events (a whale's client events, which are never player-less, would otherwise read
    ///   each of its tens of thousands of player-less events to find none). An
    ///   `AFTER INSERT` trigger on `history_events` adds a player-less event of a delivered
    ///   transaction; one on `purchases` adds the player-less events of the purchase's
    ///   transaction recorded before it (through `history_events_unowned`). The ledger never
    ///   deletes a player-less event, changes an event's player, transaction or time, nor
    ///   deletes a purchase or changes its player, so the table is exactly that set.
    /// - `history_events_by_player_id (player_id, id)`: the player's own events newest first.
    ///
    /// An event and a purchase of one transaction written at once by two PostgreSQL
    /// transactions would each miss the other's uncommitted row, and the event would be
    /// missing from the timeline for good. Both triggers therefore take the transaction lock
    /// (``LedgerSQL/lockTransaction(store:transactionId:)``, the lock every delivery already
    /// holds when it writes its purchase) before they read: the second of the two waits for
    /// the first's commit and then reads its row (each statement of a `READ COMMITTED`
    /// transaction reads what committed before it began).
    ///
    /// Order of the PostgreSQL steps: the migration's transaction creates the table, its index
    /// and the triggers (`CREATE TRIGGER` waits for the writes in progress and holds off new
    /// ones until it commits); from its commit on every new event and purchase keeps the table.
    /// Then the backfill walks the purchases in key order, 10,000 per batch, and adds their
    /// transactions' player-less events (`ON CONFLICT DO NOTHING`: a row a trigger added
    /// meanwhile is there once). Then `history_events_by_player_id` is built `CONCURRENTLY`.
    /// SQLite does it all in the migration's transaction, which holds the single writer.
    ///
    /// A bulk load (`storekeeper fill-ledger`, ``BulkLoading``) suspends both triggers, which
    /// would take a lock per event and probe an index it has dropped, and fills the table
    /// once at its end (``bulkLoadRebuilds``).
    static let playerUnownedEvents = LedgerMigration(
        version: 22,
        name: "player-less events by player",
        sqlite: [
            """
            CREATE TABLE player_unowned_events (
                player_id TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                event_id INTEGER NOT NULL,
                type TEXT NOT NULL,
                PRIMARY KEY (player_id, created_at, event_id)
            ) WITHOUT ROWID
            """,
            unownedEventsById,
            fillUnownedEvents,
            """
            CREATE TRIGGER \(eventTrigger) AFTER INSERT ON history_events
            WHEN new.player_id IS NULL AND new.transaction_id IS NOT NULL BEGIN
                \(recordEventOfPurchase);
            END
            """,
            """
            CREATE TRIGGER \(purchaseTrigger) AFTER INSERT ON purchases BEGIN
                \(recordEventsOfPurchase);
            END
            """,
            "CREATE INDEX \(ownEventsById.name) \(ownEventsById.definition)",
        ],
        postgres: [
            """
            CREATE TABLE IF NOT EXISTS player_unowned_events (
                player_id TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                event_id BIGINT NOT NULL,
                type TEXT NOT NULL,
                PRIMARY KEY (player_id, created_at, event_id)
            )
            """,
            unownedEventsById.replacingOccurrences(of: "CREATE INDEX", with: "CREATE INDEX IF NOT EXISTS"),
            """
            CREATE OR REPLACE FUNCTION storekeeper_record_event_of_purchase() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(\(LedgerSQL.transactionLockSpace), hashtext(\(
                    transactionKey(store: LedgerSQL.storeOfEvent(row: "NEW"), transactionId: "NEW.transaction_id"))));
                \(recordEventOfPurchase);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION storekeeper_record_events_of_purchase() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(\(LedgerSQL.transactionLockSpace), hashtext(\(
                    transactionKey(store: "NEW.store", transactionId: "NEW.transaction_id"))));
                \(recordEventsOfPurchase);
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER \(eventTrigger) AFTER INSERT ON history_events
            FOR EACH ROW WHEN (NEW.player_id IS NULL AND NEW.transaction_id IS NOT NULL)
            EXECUTE FUNCTION storekeeper_record_event_of_purchase()
            """,
            """
            CREATE OR REPLACE TRIGGER \(purchaseTrigger) AFTER INSERT ON purchases
            FOR EACH ROW EXECUTE FUNCTION storekeeper_record_events_of_purchase()
            """,
        ],
        postgresConcurrentIndexes: [ownEventsById],
        postgresBackfills: [
            .init(
                batch: """
                    WITH batch AS (
                        SELECT transaction_id, store, player_id FROM purchases
                        WHERE transaction_id >= ? ORDER BY transaction_id LIMIT 10000
                    ), recorded AS (
                        INSERT INTO player_unowned_events (player_id, created_at, event_id, type)
                        SELECT batch.player_id, history_events.created_at, history_events.id, history_events.type
                        FROM batch JOIN history_events ON history_events.transaction_id = batch.transaction_id
                        WHERE history_events.player_id IS NULL AND \(LedgerSQL.storeOfEvent) = batch.store
                        ON CONFLICT DO NOTHING
                    )
                    SELECT max(transaction_id) AS last FROM batch
                    """)
        ]
    )

    /// What a bulk load suspends and redoes at its end, beyond the indexes it drops: the
    /// triggers of ``playerUnownedEvents`` and of ``playerTotals``, and the statements that
    /// fill their tables from the loaded rows.
    static let bulkLoadRebuilds =
        [
            BulkLoadRebuild(
                table: "player_unowned_events",
                triggers: [
                    .init(table: "history_events", name: eventTrigger),
                    .init(table: "purchases", name: purchaseTrigger),
                ],
                statement: fillUnownedEvents)
        ] + playerTotalsRebuilds

    /// The `history_events` trigger of ``playerUnownedEvents``.
    private static let eventTrigger = "history_events_of_purchase"
    /// The `purchases` trigger of ``playerUnownedEvents``.
    private static let purchaseTrigger = "purchases_unowned_events"

    /// The newest-first index of `player_unowned_events`.
    private static let unownedEventsById = """
        CREATE INDEX player_unowned_events_by_id ON player_unowned_events (player_id, event_id, type)
        """

    /// `history_events_by_player_id`, the same on both databases.
    private static let ownEventsById = LedgerMigration.ConcurrentIndex(
        name: "history_events_by_player_id", definition: "ON history_events (player_id, id)")

    /// Every player-less event of every delivered transaction, into the table (SQLite's
    /// migration; a bulk load's end).
    private static let fillUnownedEvents = """
        INSERT INTO player_unowned_events (player_id, created_at, event_id, type)
        SELECT purchases.player_id, history_events.created_at, history_events.id, history_events.type
        FROM history_events JOIN purchases ON purchases.transaction_id = history_events.transaction_id
        WHERE history_events.player_id IS NULL AND purchases.store = \(LedgerSQL.storeOfEvent)
        ON CONFLICT DO NOTHING
        """

    /// The `history_events` trigger's statement, the same on both databases: the new
    /// player-less event, for the purchase of its transaction if there is one.
    private static let recordEventOfPurchase = """
        INSERT INTO player_unowned_events (player_id, created_at, event_id, type)
            SELECT player_id, new.created_at, new.id, new.type FROM purchases
            WHERE transaction_id = new.transaction_id AND store = \(LedgerSQL.storeOfEvent(row: "new"))
            ON CONFLICT DO NOTHING
        """

    /// The `purchases` trigger's statement: the player-less events of the new purchase's
    /// transaction recorded before it.
    private static let recordEventsOfPurchase = """
        INSERT INTO player_unowned_events (player_id, created_at, event_id, type)
            SELECT new.player_id, created_at, id, type FROM history_events
            WHERE transaction_id = new.transaction_id AND player_id IS NULL
              AND \(LedgerSQL.storeOfEvent) = new.store
            ON CONFLICT DO NOTHING
        """

    /// ``Store/key(_:)`` as SQL, of the columns named: the key of the transaction lock.
    private static func transactionKey(store: String, transactionId: String) -> String {
        "CASE WHEN \(store) = '\(Store.appStore.rawValue)' THEN \(transactionId) ELSE \(store) || ':' || \(transactionId) END"
    }
}
