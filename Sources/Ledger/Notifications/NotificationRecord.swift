import Foundation

/// An App Store Server Notification as the intake recorded it.
public struct NotificationRecord: Sendable, Hashable, Codable {
    /// Apple's `notificationUUID` (unique: Apple's retries are recognized by it).
    public var notificationUUID: String
    /// Apple's `notificationType`.
    public var type: String
    /// Apple's `subtype`, if any.
    public var subtype: String?
    /// The transaction it concerns, if any.
    public var transactionId: String?
    /// When it was first received.
    public var receivedAt: Date
    /// When processing finished, or `nil` while it has not (e.g. the server stopped
    /// between recording and processing; processing is idempotent, so do it again).
    public var processedAt: Date?

    /// Creates a notification record value.
    public init(
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        receivedAt: Date,
        processedAt: Date?
    ) {
        self.notificationUUID = notificationUUID
        self.type = type
        self.subtype = subtype
        self.transactionId = transactionId
        self.receivedAt = receivedAt
        self.processedAt = processedAt
    }
}
