/// The body of Apple's Request a Test Notification response
/// (`POST /inApps/v1/notifications/test`).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct SendTestNotificationResponse: Hashable, Codable, Sendable {
    /// The token that identifies the test notification the App Store is sending.
    public var testNotificationToken: String?

    /// Creates a response around a test notification token.
    public init(testNotificationToken: String? = nil) {
        self.testNotificationToken = testNotificationToken
    }
}
