import Foundation

extension NotificationRecord {
    /// Reads a notification from a row with ``NotificationTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<NotificationTable>(row)
        self.init(
            store: try row.enumeration(Store.self, .store),
            notificationUUID: try row.requiredText(.notificationUUID),
            type: try row.requiredText(.notificationType),
            subtype: try row.text(.subtype),
            transactionId: try row.text(.transactionId),
            receivedAt: try row.requiredTimestamp(.receivedAt),
            processedAt: try row.timestamp(.processedAt)
        )
    }
}
