/// The `consent_rescissions` table: Apple's RESCIND_CONSENT notifications, once (primary
/// key `notification_uuid`).
enum ConsentRescissionTable: LedgerTable {
    static let name = "consent_rescissions"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case notificationUUID = "notification_uuid"
        case appTransactionId = "app_transaction_id"
        case signedAt = "signed_at"
        case receivedAt = "received_at"
    }
}
