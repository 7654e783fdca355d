/// The `refund_notices` table: each store word on a transaction's refund state, once
/// (primary key `id` in arrival order, UNIQUE `notice_id`).
enum RefundNoticeTable: LedgerTable {
    static let name = "refund_notices"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case noticeId = "notice_id"
        case store
        case transactionId = "transaction_id"
        case kind
        case refundedShare = "refunded_share"
        case reason
        case signedAt = "signed_at"
        case receivedAt = "received_at"
    }
}
