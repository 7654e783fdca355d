extension LedgerSchema {
    /// Entitlements: what non-consumables and subscriptions unlock, and for whom.
    ///
    /// - `entitlements` — primary key `original_transaction_id` (one holder per chain or
    ///   purchase): the holder, the entitlement id, the backing product and transaction,
    ///   the state, `starts_at` (the chain's first purchase) and `ends_at` (`NULL`:
    ///   permanent), the renewal intent, the ownership, the environment, Apple's signed date
    ///   of the data behind the state (`apple_signed_at`) and the last change. Indexed by
    ///   holder and entitlement id (a player's entitlements, the stacking of non-renewing
    ///   periods) and, for the states that entitle, by end (the reconciler's lapsed
    ///   subscriptions).
    static let entitlements = LedgerMigration(
        version: 6,
        name: "entitlements",
        sqlite: [
            """
            CREATE TABLE entitlements (
                original_transaction_id TEXT NOT NULL PRIMARY KEY,
                player_id TEXT NOT NULL,
                entitlement_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                product_type TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('active', 'grace_period', 'billing_retry', 'expired', 'revoked', 'refunded')),
                starts_at INTEGER NOT NULL,
                ends_at INTEGER,
                auto_renew INTEGER CHECK (auto_renew IN (0, 1)),
                auto_renew_product_id TEXT,
                ownership TEXT NOT NULL,
                environment TEXT NOT NULL,
                apple_signed_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX entitlements_by_player ON entitlements (player_id, entitlement_id, ends_at)",
            """
            CREATE INDEX entitlements_entitling_by_end ON entitlements (ends_at)
            WHERE state IN ('active', 'grace_period') AND ends_at IS NOT NULL
            """,
        ],
        postgres: [
            """
            CREATE TABLE entitlements (
                original_transaction_id TEXT NOT NULL PRIMARY KEY,
                player_id TEXT NOT NULL,
                entitlement_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                product_type TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('active', 'grace_period', 'billing_retry', 'expired', 'revoked', 'refunded')),
                starts_at TIMESTAMPTZ NOT NULL,
                ends_at TIMESTAMPTZ,
                auto_renew BIGINT CHECK (auto_renew IN (0, 1)),
                auto_renew_product_id TEXT,
                ownership TEXT NOT NULL,
                environment TEXT NOT NULL,
                apple_signed_at TIMESTAMPTZ NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX entitlements_by_player ON entitlements (player_id, entitlement_id, ends_at)",
            """
            CREATE INDEX entitlements_entitling_by_end ON entitlements (ends_at)
            WHERE state IN ('active', 'grace_period') AND ends_at IS NOT NULL
            """,
        ]
    )
}
