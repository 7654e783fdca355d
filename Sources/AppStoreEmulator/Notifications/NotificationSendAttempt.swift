import AppStoreModel
import Foundation

/// One attempt by ``NotificationDispatcher`` to send a notification, reported as it
/// happens so the emulator can persist it in the notification's history.
public struct NotificationSendAttempt: Hashable, Sendable {
    /// The notification's `notificationUUID`.
    public var notificationUUID: String
    /// Which attempt this was: 1 for the first send, up to
    /// ``NotificationRetrySchedule/maximumAttempts``.
    public var attemptNumber: Int
    /// When the attempt was made (Apple's `attemptDate`).
    public var attemptDate: Date
    /// The outcome (Apple's `sendAttemptResult`).
    public var sendAttemptResult: SendAttemptResult
    /// The HTTP status code, when the server answered.
    public var statusCode: Int?
    /// When the next attempt is due, or `nil` when this attempt succeeded or was the last.
    ///
    /// Persist it with ``attemptNumber`` and ``attemptDate``: after a restart,
    /// ``NotificationDispatcher/submit(uuid:signedPayload:attemptsMade:lastAttempt:)``
    /// takes them back and keeps the schedule.
    public var nextAttemptDate: Date?

    /// Creates an attempt record.
    public init(
        notificationUUID: String, attemptNumber: Int, attemptDate: Date,
        sendAttemptResult: SendAttemptResult, statusCode: Int? = nil, nextAttemptDate: Date? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.attemptNumber = attemptNumber
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
        self.statusCode = statusCode
        self.nextAttemptDate = nextAttemptDate
    }

    /// Whether the notification was delivered by this attempt.
    public var isSuccess: Bool { sendAttemptResult == .success }

    /// Whether another attempt will follow.
    public var willRetry: Bool { nextAttemptDate != nil }
}
