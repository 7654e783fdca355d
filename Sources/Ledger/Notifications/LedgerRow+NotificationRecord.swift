import Foundation

extension NotificationRecord {
    /// Reads a notification from a row with ``LedgerSQL/notificationColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            store: try row.enumeration(Store.self, "store"),
            notificationUUID: try row.requiredText("notification_uuid"),
            type: try row.requiredText("notification_type"),
            subtype: try row.text("subtype"),
            transactionId: try row.text("transaction_id"),
            receivedAt: try row.requiredTimestamp("received_at"),
            processedAt: try row.timestamp("processed_at")
        )
    }
}
