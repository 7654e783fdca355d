/// The answer of Get Test Notification Status
/// (`GET /inApps/v1/notifications/test/{testNotificationToken}`): the test notification
/// and every attempt the App Store made to deliver it.
public struct CheckTestNotificationResponse: Hashable, Codable, Sendable {
    /// The signed TEST notification.
    public var signedPayload: String?
    /// Each delivery attempt, oldest first.
    public var sendAttempts: [SendAttemptItem]?

    /// Creates a response.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
