import AppStoreModel
import Foundation

/// A server notification the emulated App Store issued, kept for notification history
/// whatever became of its delivery.
public struct EmulatedNotification: Codable, Hashable, Sendable {
    public var notificationUUID: String
    public var notificationType: NotificationType
    public var subtype: NotificationSubtype?
    public var environment: AppStoreEnvironment
    /// The transaction it is about, if any (history can be filtered by it).
    public var transactionId: String?
    public var signedPayload: String
    /// Milliseconds since 1970.
    public var signedDate: Int64
    /// Every delivery attempt, oldest first.
    public var attempts: [Attempt]

    /// One delivery attempt and its outcome, with Apple's `sendAttemptResult` values.
    public struct Attempt: Codable, Hashable, Sendable {
        /// Milliseconds since 1970.
        public var attemptDate: Int64
        public var sendAttemptResult: String
    }

    /// Whether an attempt succeeded.
    public var isDelivered: Bool { attempts.contains { $0.sendAttemptResult == "SUCCESS" } }
}
