/// One attempt by the App Store to deliver a notification to the app's server (Apple's
/// `sendAttemptItem`).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct SendAttemptItem: Hashable, Codable, Sendable {
    /// When the App Store attempted delivery, in milliseconds since 1970.
    public var attemptDate: Int64?
    /// The outcome of the attempt.
    public var sendAttemptResult: SendAttemptResult?

    /// Creates an attempt record; every field defaults to absent.
    public init(attemptDate: Int64? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
