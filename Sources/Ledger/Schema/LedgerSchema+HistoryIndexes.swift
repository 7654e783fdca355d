extension LedgerSchema {
    /// The indexes that keep the console's and the workers' reads off whole tables in a ledger
    /// with years of history (version 13; issue 32, docs/PERFORMANCE.md "Years of history"):
    ///
    /// - `purchases_refunded_by_time`: refunded purchases by time, only those (the overview
    ///   read its refunds since a date from it until migration 20; ``revenueDays``'
    ///   PostgreSQL backfill walks it one refund day per batch).
    /// - `orders_open_by_product`: the owner candidates' open orders of a product in a time
    ///   window (``LedgerSQL/ownerCandidates(productId:appAccountToken:createdFrom:createdTo:limit:)``,
    ///   whose order by token is the UNIQUE index of `app_account_token`).
    /// - `purchases_flagged`: flagged purchases newest first
    ///   (``LedgerSQL/purchases(containingFlag:limit:dialect:)``), only purchases with a flag.
    /// - `purchases_by_product_date`: a page of the entitlement backfill
    ///   (``LedgerSQL/purchasesWithoutEntitlement(productIds:after:limit:)``), each product's
    ///   purchases from the cursor on.
    ///
    /// PostgreSQL builds them `CONCURRENTLY` (``LedgerMigration/postgresConcurrentIndexes``):
    /// deliveries and refunds go on while the indexes of `purchases` and `orders` are built.
    /// SQLite builds them in the migration's transaction, which holds the single writer.
    static let historyIndexes = LedgerMigration(
        version: 13,
        name: "indexes for years of history",
        sqlite: historyIndexDefinitions.map { "CREATE INDEX \($0.name) \($0.definition)" },
        postgres: [],
        postgresConcurrentIndexes: historyIndexDefinitions
    )

    /// The indexes of ``historyIndexes``, the same on both databases.
    private static let historyIndexDefinitions: [LedgerMigration.ConcurrentIndex] = [
        .init(
            name: "purchases_refunded_by_time",
            definition: "ON purchases (refunded_at, transaction_id) WHERE refunded_share > 0"),
        .init(
            name: "orders_open_by_product", definition: "ON orders (product_id, created_at) WHERE status = 'created'"),
        .init(name: "purchases_flagged", definition: "ON purchases (delivered_at, transaction_id) WHERE flags <> '[]'"),
        .init(
            name: "purchases_by_product_date", definition: "ON purchases (product_id, purchase_date, transaction_id)"),
    ]
}
