import Foundation

extension LedgerSQL {
    /// Records a notification unless its UUID is known; a row only when recorded.
    static func insertNotification(_ notification: NotificationRecord) -> LedgerStatement {
        NotificationTable.insert(
            [
                .store: .text(notification.store.rawValue), .notificationUUID: .text(notification.notificationUUID),
                .notificationType: .text(notification.type), .subtype: .optional(notification.subtype),
                .transactionId: .optional(notification.transactionId), .receivedAt: .timestamp(notification.receivedAt),
            ],
            "ON CONFLICT (notification_uuid) DO NOTHING RETURNING notification_uuid")
    }

    /// The history event for a new notification, attributed to the transaction's player
    /// when the transaction was already delivered.
    static func insertNotificationEvent(
        _ notification: NotificationRecord,
        signedDate: Date?,
        refund: RefundNotice?
    ) throws -> LedgerStatement {
        var detail = ["notificationUUID": notification.notificationUUID, "notificationType": notification.type]
        detail["subtype"] = notification.subtype
        detail["signedDate"] = signedDate.map { String($0.ledgerMilliseconds) }
        if let refund, refund.kind != .reversal { detail["revokedShare"] = String(refund.refundedShare) }
        let transactionId = SQLArgument.optional(notification.transactionId)
        let store = SQLArgument.text(notification.store.rawValue)
        return LedgerStatement(
            """
            INSERT INTO history_events (type, player_id, order_id, transaction_id, store, detail, created_at)
            VALUES (?, (SELECT player_id FROM purchases WHERE transaction_id = ? AND store = ?),
                    (SELECT order_id FROM purchases WHERE transaction_id = ? AND store = ?), ?, ?, ?, ?)
            """,
            [
                .text(HistoryEventType.notificationReceived.rawValue), transactionId, store, transactionId, store,
                transactionId, notification.transactionId == nil ? .optional(nil as String?) : store,
                .text(LedgerJSON.text(detail)), .timestamp(notification.receivedAt),
            ]
        )
    }

    static func markNotificationProcessed(uuid: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            "UPDATE notifications SET processed_at = ? WHERE notification_uuid = ? AND processed_at IS NULL",
            [.timestamp(at), .text(uuid)]
        )
    }

    static func notification(uuid: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(NotificationTable.columns) FROM notifications WHERE notification_uuid = ?",
            [.text(uuid)]
        )
    }
}
