/// The `notifications` table: every store notification received, once (primary key
/// `notification_uuid`).
enum NotificationTable: LedgerTable {
    static let name = "notifications"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case store
        case notificationUUID = "notification_uuid"
        case notificationType = "notification_type"
        case subtype
        case transactionId = "transaction_id"
        case receivedAt = "received_at"
        case processedAt = "processed_at"
    }
}
