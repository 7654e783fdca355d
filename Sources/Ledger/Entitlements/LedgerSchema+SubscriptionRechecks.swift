extension LedgerSchema {
    /// When the reconciler may next ask Apple about a lapsed subscription.
    ///
    /// - `entitlements.recheck_at` — `NULL`: at its next pass; otherwise not before then.
    /// - `entitlements.recheck_failures` — checks in a row that left it lapsed (Apple failed
    ///   to answer, or answered without settling it); the wait doubles with each. Any change
    ///   of the entitlement clears both.
    static let subscriptionRechecks = LedgerMigration(
        version: 7,
        name: "subscription rechecks",
        sqlite: [
            "ALTER TABLE entitlements ADD COLUMN recheck_at INTEGER",
            "ALTER TABLE entitlements ADD COLUMN recheck_failures INTEGER NOT NULL DEFAULT 0",
        ],
        postgres: [
            "ALTER TABLE entitlements ADD COLUMN recheck_at TIMESTAMPTZ",
            "ALTER TABLE entitlements ADD COLUMN recheck_failures BIGINT NOT NULL DEFAULT 0",
        ]
    )
}
