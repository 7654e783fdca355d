extension LedgerSchema {
    /// Consent to share consumption data with the App Store, Apple's rescissions of it, and
    /// the game server's consumption reports.
    ///
    /// - `consumption_consents` — primary key `player_id`: the latest status (`given` or
    ///   `withdrawn`), its source and time, and the App Store account (`app_transaction_id`)
    ///   the consent was given with, indexed for `RESCIND_CONSENT`.
    /// - `consent_rescissions` — primary key `notification_uuid`: each `RESCIND_CONSENT`
    ///   once, with its account, indexed by account and arrival.
    /// - `consumption_reports` — primary key `transaction_id` (references `purchases`): the
    ///   latest share spent of a purchase, in milliunits.
    static let consumptionConsent = LedgerMigration(
        version: 3,
        name: "consumption consent",
        sqlite: [
            """
            CREATE TABLE consumption_consents (
                player_id TEXT NOT NULL PRIMARY KEY,
                status TEXT NOT NULL CHECK (status IN ('given', 'withdrawn')),
                source TEXT NOT NULL CHECK (source IN ('player', 'admin', 'apple_rescind_consent')),
                app_transaction_id TEXT,
                changed_by TEXT,
                changed_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX consumption_consents_by_account ON consumption_consents (app_transaction_id)",
            """
            CREATE TABLE consent_rescissions (
                notification_uuid TEXT NOT NULL PRIMARY KEY,
                app_transaction_id TEXT,
                signed_at INTEGER,
                received_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX consent_rescissions_by_account ON consent_rescissions (app_transaction_id, received_at)",
            """
            CREATE TABLE consumption_reports (
                transaction_id TEXT NOT NULL PRIMARY KEY REFERENCES purchases (transaction_id),
                player_id TEXT NOT NULL,
                consumption_percentage INTEGER NOT NULL CHECK (consumption_percentage BETWEEN 0 AND 100000),
                spent TEXT,
                reported_by TEXT,
                reported_at INTEGER NOT NULL
            )
            """,
        ],
        postgres: [
            """
            CREATE TABLE consumption_consents (
                player_id TEXT NOT NULL PRIMARY KEY,
                status TEXT NOT NULL CHECK (status IN ('given', 'withdrawn')),
                source TEXT NOT NULL CHECK (source IN ('player', 'admin', 'apple_rescind_consent')),
                app_transaction_id TEXT,
                changed_by TEXT,
                changed_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX consumption_consents_by_account ON consumption_consents (app_transaction_id)",
            """
            CREATE TABLE consent_rescissions (
                notification_uuid TEXT NOT NULL PRIMARY KEY,
                app_transaction_id TEXT,
                signed_at TIMESTAMPTZ,
                received_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX consent_rescissions_by_account ON consent_rescissions (app_transaction_id, received_at)",
            """
            CREATE TABLE consumption_reports (
                transaction_id TEXT NOT NULL PRIMARY KEY REFERENCES purchases (transaction_id),
                player_id TEXT NOT NULL,
                consumption_percentage BIGINT NOT NULL CHECK (consumption_percentage BETWEEN 0 AND 100000),
                spent TEXT,
                reported_by TEXT,
                reported_at TIMESTAMPTZ NOT NULL
            )
            """,
        ]
    )
}
