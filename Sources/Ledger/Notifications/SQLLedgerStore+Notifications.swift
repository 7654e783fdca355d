import Foundation

extension SQLLedgerStore {
    public func recordNotification(
        store: Store,
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        signedDate: Date?,
        refund: RefundNotice?,
        receivedAt: Date
    ) async throws -> Bool {
        let notification = NotificationRecord(
            store: store,
            notificationUUID: notificationUUID,
            type: type,
            subtype: subtype,
            transactionId: transactionId,
            receivedAt: receivedAt.ledgerNormalized,
            processedAt: nil
        )
        return try await write(
            LedgerWrites.recordNotification(notification, signedDate: signedDate, refund: refund))
    }

    public func markNotificationProcessed(_ notificationUUID: String) async throws {
        try await writeAutocommit(.execute(LedgerSQL.markNotificationProcessed(uuid: notificationUUID, at: now)))
    }

    public func notification(uuid: String) async throws -> NotificationRecord? {
        try await read(.first(LedgerSQL.notification(uuid: uuid), NotificationRecord.init(row:)))
    }
}
