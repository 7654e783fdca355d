extension LedgerSchema {
    /// The index that keeps the reconciler's read of the Google Play purchases to settle at
    /// Google off the other stores' purchases (version 16; issue 32, docs/PERFORMANCE.md
    /// "Years of history"): `purchases_play_by_delivery` holds only Google Play's purchases,
    /// by delivery, so that ``LedgerSQL/purchases(store:deliveredSince:without:limit:)``
    /// walks the Play purchases of its window, not every purchase delivered in it.
    ///
    /// PostgreSQL builds it `CONCURRENTLY` (``LedgerMigration/postgresConcurrentIndexes``);
    /// SQLite in the migration's transaction.
    static let playSettlementIndex = LedgerMigration(
        version: 16,
        name: "index of Google Play purchases by delivery",
        sqlite: ["CREATE INDEX \(playByDelivery.name) \(playByDelivery.definition)"],
        postgres: [],
        postgresConcurrentIndexes: [playByDelivery]
    )

    /// The index of ``playSettlementIndex``, the same on both databases. Its condition names
    /// the store as a literal, which the read repeats (a bound parameter does not prove a
    /// partial index's condition to either planner).
    static let playByDelivery = LedgerMigration.ConcurrentIndex(
        name: "purchases_play_by_delivery",
        definition: "ON purchases (delivered_at, transaction_id) WHERE store = '\(Store.googlePlay.rawValue)'")
}
