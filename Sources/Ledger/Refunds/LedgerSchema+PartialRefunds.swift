extension LedgerSchema {
    /// `purchases.refunded_share`: how much of the purchase Apple has refunded, in
    /// milliunits (0 to 100,000), which the ledger has taken back of its grant. A purchase
    /// refunded before this version was refunded in whole.
    static let partialRefunds = LedgerMigration(
        version: 4,
        name: "partial refunds",
        sqlite: [
            """
            ALTER TABLE purchases ADD COLUMN refunded_share INTEGER NOT NULL DEFAULT 0
                CHECK (refunded_share BETWEEN 0 AND 100000)
            """,
            "UPDATE purchases SET refunded_share = 100000 WHERE status = 'refunded'",
        ],
        postgres: [
            """
            ALTER TABLE purchases ADD COLUMN refunded_share BIGINT NOT NULL DEFAULT 0
                CHECK (refunded_share BETWEEN 0 AND 100000)
            """,
            "UPDATE purchases SET refunded_share = 100000 WHERE status = 'refunded'",
        ]
    )
}
