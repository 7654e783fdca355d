extension LedgerSchema {
    /// `known_players` (version 14; issue 32, docs/PERFORMANCE.md "Years of history"): one row
    /// per player with an order, a purchase or a balance, the players support's search reads
    /// (``LedgerSQL/players(containing:limit:dialect:)``), indexed by the trigrams of their
    /// ids so that a substring search reads the matching players only.
    ///
    /// - `known_players (player_id)`: primary key in the database's comparison. `AFTER INSERT`
    ///   triggers on `orders`, `purchases` and `balances` add the player of each new row when
    ///   absent (a staff grant writes a balance of a player without an order or a purchase);
    ///   the ledger never deletes those rows nor changes their player, so the table stays the
    ///   union of the three tables' players.
    /// - `known_players_outside_ascii`: a partial index of the ids with a character outside
    ///   ASCII, in byte order (``LedgerSQL/players(outsideASCIILimit:dialect:)``).
    /// - SQLite: `known_players_search`, an FTS5 table with the `trigram` tokenizer holding
    ///   each id of `known_players` (a trigger adds it), which answers a phrase query of
    ///   three or more characters with the ids containing it, case folded. It keeps its own
    ///   copy of the ids rather than `known_players`' rowids, which a `VACUUM` may renumber.
    /// - PostgreSQL: `pg_trgm` and `known_players_trigrams`, a GIN index of the trigrams of
    ///   `lower(player_id COLLATE "C")`, which serves `LIKE '%…%'` on that expression.
    ///
    /// Order of the PostgreSQL steps, so that no player is missed and the large tables are
    /// locked only briefly: the migration's transaction creates the table and the triggers
    /// (`CREATE TRIGGER` waits for the writes in progress and holds off new ones until the
    /// transaction commits: it does nothing else); from its commit on, every new row's player
    /// is recorded by a trigger. Then the backfill reads each table's players through its
    /// player index, 10,000 at a time, each batch its own transaction with
    /// `ON CONFLICT DO NOTHING` (a player the triggers recorded meanwhile is kept once), and
    /// every batch's snapshot holds every row committed before the triggers existed. Last,
    /// the two indexes are built `CONCURRENTLY`. SQLite does it all in the migration's
    /// transaction, which holds the single writer.
    static let knownPlayers = LedgerMigration(
        version: 14,
        name: "known players searchable by substring",
        sqlite: [
            "CREATE TABLE known_players (player_id TEXT NOT NULL PRIMARY KEY)",
            """
            CREATE INDEX known_players_outside_ascii ON known_players (player_id)
            WHERE length(player_id) <> length(CAST(player_id AS BLOB))
            """,
            """
            CREATE VIRTUAL TABLE known_players_search USING fts5(player_id, tokenize = 'trigram case_sensitive 0')
            """,
            """
            INSERT OR IGNORE INTO known_players (player_id)
            SELECT player_id FROM orders UNION SELECT player_id FROM purchases UNION SELECT player_id FROM balances
            """,
            "INSERT INTO known_players_search (player_id) SELECT player_id FROM known_players",
            """
            CREATE TRIGGER known_players_searchable AFTER INSERT ON known_players BEGIN
                INSERT INTO known_players_search (player_id) VALUES (new.player_id);
            END
            """,
            """
            CREATE TRIGGER orders_known_player AFTER INSERT ON orders BEGIN
                INSERT OR IGNORE INTO known_players (player_id) VALUES (new.player_id);
            END
            """,
            """
            CREATE TRIGGER purchases_known_player AFTER INSERT ON purchases BEGIN
                INSERT OR IGNORE INTO known_players (player_id) VALUES (new.player_id);
            END
            """,
            """
            CREATE TRIGGER balances_known_player AFTER INSERT ON balances BEGIN
                INSERT OR IGNORE INTO known_players (player_id) VALUES (new.player_id);
            END
            """,
        ],
        postgres: [
            "CREATE TABLE IF NOT EXISTS known_players (player_id TEXT NOT NULL PRIMARY KEY)",
            """
            CREATE OR REPLACE FUNCTION storekeeper_record_known_player() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO known_players (player_id) VALUES (NEW.player_id) ON CONFLICT DO NOTHING;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE TRIGGER orders_known_player AFTER INSERT ON orders
            FOR EACH ROW EXECUTE FUNCTION storekeeper_record_known_player()
            """,
            """
            CREATE OR REPLACE TRIGGER purchases_known_player AFTER INSERT ON purchases
            FOR EACH ROW EXECUTE FUNCTION storekeeper_record_known_player()
            """,
            """
            CREATE OR REPLACE TRIGGER balances_known_player AFTER INSERT ON balances
            FOR EACH ROW EXECUTE FUNCTION storekeeper_record_known_player()
            """,
        ],
        postgresConcurrentIndexes: [
            .init(
                name: "known_players_trigrams",
                definition: "ON known_players USING gin (lower(player_id COLLATE \"C\") gin_trgm_ops)"),
            .init(
                name: "known_players_outside_ascii",
                definition: """
                    ON known_players (player_id COLLATE "C") WHERE length(player_id) <> octet_length(player_id)
                    """),
        ],
        postgresExtensions: ["pg_trgm"],
        postgresBackfills: ["orders", "purchases", "balances"].map { table in
            .init(
                batch: """
                    WITH batch AS (
                        SELECT DISTINCT player_id FROM \(table) WHERE player_id >= ? ORDER BY player_id LIMIT 10000
                    ), recorded AS (
                        INSERT INTO known_players (player_id) SELECT player_id FROM batch ON CONFLICT DO NOTHING
                    )
                    SELECT max(player_id) AS last FROM batch
                    """)
        },
        sqliteNeedsTrigramSearch: true
    )
}
