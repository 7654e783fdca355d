import Foundation

extension LedgerSQL {
    /// The latest purchase of each original transaction of `productIds` that has no
    /// entitlement, after `cursor` in (purchase date, transaction id) order, at most
    /// `limit` (see ``EntitlementStore/purchasesWithoutEntitlement(productIds:after:limit:)``).
    ///
    /// Each product's page is read apart, in order from the cursor on through
    /// `purchases_by_product_date` (``LedgerSchema/historyIndexes``) and stopping at `limit`,
    /// and the pages are merged: a page reads the purchases after the cursor, never the
    /// whole table (one ordered walk cannot serve several products). The two checks are
    /// subqueries with `LIMIT 1` rather than `NOT EXISTS`, which PostgreSQL may plan as an
    /// anti-join walking all of `entitlements` or of the purchases by chain: each is one
    /// index probe per purchase read.
    static func purchasesWithoutEntitlement(productIds: [String], after cursor: Purchase?, limit: Int)
        -> LedgerStatement
    {
        var after = ""
        var afterArguments: [SQLArgument] = []
        if let cursor {
            after = """
                AND p.purchase_date >= ?
                AND (p.purchase_date > ? OR (p.purchase_date = ? AND p.transaction_id > ?))
                """
            afterArguments = [
                .timestamp(cursor.purchaseDate), .timestamp(cursor.purchaseDate), .timestamp(cursor.purchaseDate),
                .text(cursor.transactionId),
            ]
        }
        let pageLimit = SQLArgument.integer(Int64(max(limit, 0)))
        let page = """
            SELECT * FROM (
                SELECT \(PurchaseTable.columns) FROM purchases p
                WHERE p.product_id = ?
                AND (
                    SELECT 1 FROM entitlements e WHERE e.original_transaction_id = p.original_transaction_id
                    AND e.store = p.store LIMIT 1) IS NULL
                AND (
                    SELECT 1 FROM purchases q WHERE q.original_transaction_id = p.original_transaction_id
                    AND q.store = p.store
                    AND (q.purchase_date > p.purchase_date
                         OR (q.purchase_date = p.purchase_date AND q.transaction_id > p.transaction_id))
                    LIMIT 1) IS NULL
                \(after)
                ORDER BY p.purchase_date, p.transaction_id
                LIMIT ?
            )
            """
        let pages = productIds.enumerated().map { "\(page) AS product\($0.offset)" }
        return LedgerStatement(
            """
            SELECT \(PurchaseTable.columns) FROM (
            \(pages.joined(separator: "\nUNION ALL\n"))
            ) AS merged
            ORDER BY purchase_date, transaction_id
            LIMIT ?
            """,
            productIds.flatMap { [.text($0)] + afterArguments + [pageLimit] } + [pageLimit]
        )
    }
}
