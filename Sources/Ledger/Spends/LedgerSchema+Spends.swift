extension LedgerSchema {
    /// The game's spends (version 10).
    ///
    /// - `spends` — primary key (`player_id`, `idempotency_key`): the items debited and the
    ///   reason (JSON object and text, as asked), the actor, the balances after (JSON) and
    ///   when; indexed by player and time (a player's spends, newest first).
    /// - `ledger_entries.kind` also takes `spend`. SQLite cannot change a CHECK constraint,
    ///   so its table is rebuilt with every row and id kept (and the id sequence, which
    ///   moves with the rename; the previous release's statements keep working on it);
    ///   PostgreSQL replaces the constraint under its name, `NOT VALID` (every row already
    ///   satisfies the narrower one, and no scan holds the table's lock).
    static let spends = LedgerMigration(
        version: 10,
        name: "spends",
        sqlite: [
            """
            CREATE TABLE ledger_entries_with_spends (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                player_id TEXT NOT NULL,
                item TEXT NOT NULL,
                amount INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('grant', 'refund', 'refund_reversed', 'manual', 'spend')),
                transaction_id TEXT REFERENCES purchases (transaction_id),
                reason TEXT,
                actor TEXT,
                balance_after INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            """
            INSERT INTO ledger_entries_with_spends (id, player_id, item, amount, kind, transaction_id, reason, actor, \
            balance_after, created_at)
            SELECT id, player_id, item, amount, kind, transaction_id, reason, actor, balance_after, created_at
            FROM ledger_entries ORDER BY id
            """,
            "DROP TABLE ledger_entries",
            "ALTER TABLE ledger_entries_with_spends RENAME TO ledger_entries",
            "CREATE INDEX ledger_entries_by_player ON ledger_entries (player_id, id)",
            "CREATE INDEX ledger_entries_by_transaction ON ledger_entries (transaction_id)",
            """
            CREATE TABLE spends (
                player_id TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                items TEXT NOT NULL,
                reason TEXT NOT NULL,
                actor TEXT NOT NULL,
                balances TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (player_id, idempotency_key)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX spends_by_player ON spends (player_id, created_at)",
        ],
        postgres: [
            "ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check",
            """
            ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
            CHECK (kind IN ('grant', 'refund', 'refund_reversed', 'manual', 'spend')) NOT VALID
            """,
            """
            CREATE TABLE spends (
                player_id TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                items TEXT NOT NULL,
                reason TEXT NOT NULL,
                actor TEXT NOT NULL,
                balances TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (player_id, idempotency_key)
            )
            """,
            "CREATE INDEX spends_by_player ON spends (player_id, created_at)",
        ]
    )
}
