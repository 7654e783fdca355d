import Foundation

/// The ledger's record of the store's server notifications, each once.
public protocol NotificationStore: Sendable {
    /// Records an App Store Server Notification; `true` when it is new, `false` for a
    /// duplicate (same `notificationUUID`; nothing changes). A new notification also gets a
    /// ``HistoryEventType/notificationReceived`` event whose detail holds its type, subtype,
    /// UUID, Apple's `signedDate` (milliseconds), which orders notifications that arrive
    /// out of order, and `revokedShare`: the share of the transaction its signed transaction
    /// says Apple refunded or revoked (milliunits, 100,000 is all; `JWSTransactionDecodedPayload.revokedShare`),
    /// which a REFUND or REVOKE sets (all of it when `nil`).
    func recordNotification(
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        signedDate: Date?,
        revokedShare: Int?,
        receivedAt: Date
    ) async throws -> Bool

    /// Marks a recorded notification processed (the first time only).
    func markNotificationProcessed(_ notificationUUID: String) async throws

    /// The recorded notification with this UUID.
    func notification(uuid: String) async throws -> NotificationRecord?
}
