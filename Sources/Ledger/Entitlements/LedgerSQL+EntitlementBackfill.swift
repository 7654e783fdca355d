import Foundation

extension LedgerSQL {
    /// The latest purchase of each original transaction of `productIds` that has no
    /// entitlement, after `cursor` in (purchase date, transaction id) order, at most
    /// `limit` (see ``EntitlementStore/purchasesWithoutEntitlement(productIds:after:limit:)``).
    static func purchasesWithoutEntitlement(productIds: [String], after cursor: Purchase?, limit: Int)
        -> LedgerStatement
    {
        var arguments = productIds.map(SQLArgument.text)
        var after = ""
        if let cursor {
            after = "AND (p.purchase_date > ? OR (p.purchase_date = ? AND p.transaction_id > ?))"
            arguments += [
                .timestamp(cursor.purchaseDate), .timestamp(cursor.purchaseDate), .text(cursor.transactionId),
            ]
        }
        arguments.append(.integer(Int64(max(limit, 0))))
        let placeholders = Array(repeating: "?", count: productIds.count).joined(separator: ", ")
        return LedgerStatement(
            """
            SELECT \(PurchaseTable.columns) FROM purchases p
            WHERE p.product_id IN (\(placeholders))
            AND NOT EXISTS (
                SELECT 1 FROM entitlements e WHERE e.original_transaction_id = p.original_transaction_id
                AND e.store = p.store)
            AND NOT EXISTS (
                SELECT 1 FROM purchases q WHERE q.original_transaction_id = p.original_transaction_id
                AND q.store = p.store
                AND (q.purchase_date > p.purchase_date
                     OR (q.purchase_date = p.purchase_date AND q.transaction_id > p.transaction_id)))
            \(after)
            ORDER BY p.purchase_date, p.transaction_id
            LIMIT ?
            """,
            arguments
        )
    }
}
