import Foundation

/// A store's server notification as the intake recorded it.
public struct NotificationRecord: Sendable, Hashable, Codable {
    /// The store that sent it.
    public var store: Store
    /// The store's id for the notification (Apple's `notificationUUID`; unique: the store's
    /// retries are recognized by it).
    public var notificationUUID: String
    /// Apple's `notificationType`.
    public var type: String
    /// Apple's `subtype`, if any.
    public var subtype: String?
    /// The store's transaction it concerns, if any.
    public var transactionId: String?
    /// When it was first received.
    public var receivedAt: Date
    /// When processing finished, or `nil` while it has not (e.g. the server stopped
    /// between recording and processing; processing is idempotent, so do it again).
    public var processedAt: Date?

    /// Creates a notification record value.
    public init(
        store: Store,
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        receivedAt: Date,
        processedAt: Date?
    ) {
        self.store = store
        self.notificationUUID = notificationUUID
        self.type = type
        self.subtype = subtype
        self.transactionId = transactionId
        self.receivedAt = receivedAt
        self.processedAt = processedAt
    }
}
