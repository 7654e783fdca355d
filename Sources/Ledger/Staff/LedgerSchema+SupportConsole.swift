extension LedgerSchema {
    /// The support console's accounts, sessions and audit log, and the indexes behind its
    /// reads (``SupportReads``).
    ///
    /// - `staff_accounts` — primary key `name`: the role (`viewer`, `agent`, `admin`), the
    ///   bcrypt password hash, the optional TOTP secret, when it was disabled, the failed
    ///   sign-ins counted towards a lock and the lock's end.
    /// - `staff_sessions` — primary key `token_digest` (the SHA-256 of the cookie's token,
    ///   never the token), `staff_name` references `staff_accounts`, indexed by account.
    /// - `audit_log` — append-only, indexed by actor (the audit page) and by action,
    ///   address and time (the sign-in rate limit across instances).
    /// - `history_events` by type and time (the owed queue's `awaiting_report` events, the
    ///   overview's refunds), `purchases` by delivery time (the overview), and partial
    ///   indexes of refunded purchases and negative balances (refund signals).
    static let supportConsole = LedgerMigration(
        version: 5,
        name: "support console",
        sqlite: [
            """
            CREATE TABLE staff_accounts (
                name TEXT NOT NULL PRIMARY KEY,
                role TEXT NOT NULL CHECK (role IN ('viewer', 'agent', 'admin')),
                password_hash TEXT NOT NULL,
                totp_secret TEXT,
                disabled_at INTEGER,
                failed_sign_ins INTEGER NOT NULL DEFAULT 0,
                locked_until INTEGER,
                created_at INTEGER NOT NULL,
                password_changed_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE staff_sessions (
                token_digest TEXT NOT NULL PRIMARY KEY,
                staff_name TEXT NOT NULL REFERENCES staff_accounts (name),
                csrf_token TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                last_seen_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                address TEXT NOT NULL
            )
            """,
            "CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_name)",
            """
            CREATE TABLE audit_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                actor TEXT NOT NULL,
                action TEXT NOT NULL,
                target TEXT,
                detail TEXT NOT NULL,
                address TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX audit_log_by_actor ON audit_log (actor, id)",
            "CREATE INDEX audit_log_by_action ON audit_log (action, address, created_at)",
            "CREATE INDEX history_events_by_type ON history_events (type, created_at)",
            "CREATE INDEX purchases_by_delivery ON purchases (delivered_at)",
            "CREATE INDEX purchases_refunded_by_player ON purchases (player_id) WHERE refunded_share > 0",
            "CREATE INDEX balances_negative ON balances (player_id) WHERE amount < 0",
        ],
        postgres: [
            """
            CREATE TABLE staff_accounts (
                name TEXT NOT NULL PRIMARY KEY,
                role TEXT NOT NULL CHECK (role IN ('viewer', 'agent', 'admin')),
                password_hash TEXT NOT NULL,
                totp_secret TEXT,
                disabled_at TIMESTAMPTZ,
                failed_sign_ins BIGINT NOT NULL DEFAULT 0,
                locked_until TIMESTAMPTZ,
                created_at TIMESTAMPTZ NOT NULL,
                password_changed_at TIMESTAMPTZ NOT NULL
            )
            """,
            """
            CREATE TABLE staff_sessions (
                token_digest TEXT NOT NULL PRIMARY KEY,
                staff_name TEXT NOT NULL REFERENCES staff_accounts (name),
                csrf_token TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL,
                last_seen_at TIMESTAMPTZ NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL,
                address TEXT NOT NULL
            )
            """,
            "CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_name)",
            """
            CREATE TABLE audit_log (
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                actor TEXT NOT NULL,
                action TEXT NOT NULL,
                target TEXT,
                detail TEXT NOT NULL,
                address TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX audit_log_by_actor ON audit_log (actor, id)",
            "CREATE INDEX audit_log_by_action ON audit_log (action, address, created_at)",
            "CREATE INDEX history_events_by_type ON history_events (type, created_at)",
            "CREATE INDEX purchases_by_delivery ON purchases (delivered_at)",
            "CREATE INDEX purchases_refunded_by_player ON purchases (player_id) WHERE refunded_share > 0",
            "CREATE INDEX balances_negative ON balances (player_id) WHERE amount < 0",
        ]
    )
}
