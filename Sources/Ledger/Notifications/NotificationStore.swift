import Foundation

/// The ledger's record of the store's server notifications, each once.
public protocol NotificationStore: Sendable {
    /// Records a store's server notification; `true` when it is new, `false` for a
    /// duplicate (same `notificationUUID`; nothing changes). A new notification also gets a
    /// ``HistoryEventType/notificationReceived`` event whose detail holds its type, subtype,
    /// UUID, the store's `signedDate` (milliseconds) and, for a `refund` notice about
    /// `transactionId`, the share it sets (`revokedShare`). The notice itself (its kind,
    /// share and signing date, which orders notices that arrive out of order) is recorded
    /// for ``RefundStore/settleRefundState(store:transactionId:reason:)`` in the same transaction.
    func recordNotification(
        store: Store,
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        signedDate: Date?,
        refund: RefundNotice?,
        receivedAt: Date
    ) async throws -> Bool

    /// Marks a recorded notification processed (the first time only).
    func markNotificationProcessed(_ notificationUUID: String) async throws

    /// The recorded notification with this UUID.
    func notification(uuid: String) async throws -> NotificationRecord?
}
