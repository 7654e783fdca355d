import Foundation

/// Apple's `RESCIND_CONSENT` notification as the ledger keeps it: the App Store account
/// (`appTransactionId`, from the notification's signed app transaction) whose consent was
/// withdrawn. A consent given with that account, or a consumption request for a transaction
/// bought with it, that the rescission postdates no longer counts.
public struct ConsentRescission: Sendable, Hashable, Codable {
    /// Apple's `notificationUUID` (unique: a notification processed again changes nothing).
    public var notificationUUID: String
    /// The account's `appTransactionId`; `nil` when the notification carried none (nothing
    /// can be matched to it).
    public var appTransactionId: String?
    /// When Apple signed the notification.
    public var signedDate: Date?
    /// When the server received it.
    public var receivedAt: Date

    /// Creates a rescission value.
    public init(notificationUUID: String, appTransactionId: String?, signedDate: Date?, receivedAt: Date) {
        self.notificationUUID = notificationUUID
        self.appTransactionId = appTransactionId
        self.signedDate = signedDate
        self.receivedAt = receivedAt
    }
}
