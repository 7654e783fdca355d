/// The `purchases` table: one row per delivered store transaction, exactly once per
/// (`store`, `transaction_id`). (`transaction_id` alone stays the primary key while the
/// previous release's statements may run: see ``LedgerSchema/storeIdentity``.)
enum PurchaseTable: LedgerTable {
    static let name = "purchases"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case store
        case transactionId = "transaction_id"
        case originalTransactionId = "original_transaction_id"
        case playerId = "player_id"
        case orderId = "order_id"
        case productId = "product_id"
        case quantity
        case environment
        case source
        case flags
        case grants
        case status
        case purchaseDate = "purchase_date"
        case deliveredAt = "delivered_at"
        case refundedAt = "refunded_at"
        case refundReason = "refund_reason"
        case refundedShare = "refunded_share"
    }
}
