/// One notification of the history (Apple's `notificationHistoryResponseItem`): the signed
/// notification and the App Store's attempts to deliver it.
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct NotificationHistoryResponseItem: Hashable, Codable, Sendable {
    /// The notification, as a JWS that decodes to a ``ResponseBodyV2DecodedPayload``: the
    /// same value the App Store posted as ``ResponseBodyV2/signedPayload``.
    public var signedPayload: String?
    /// The delivery attempts, at most six (the first and up to five retries).
    public var sendAttempts: [SendAttemptItem]?

    /// Creates a history record; every field defaults to absent.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
