import AppStoreModel

/// What a ``NotificationTransport`` observed when it posted one notification body.
public enum NotificationDeliveryResult: Hashable, Sendable {
    /// The server answered with this HTTP status code (200 is the only success).
    case response(statusCode: Int)
    /// No HTTP response was received; the kind of failure, as Apple reports it (for
    /// example ``SendAttemptResult/timedOut`` or
    /// ``SendAttemptResult/socketIssue``).
    case failure(SendAttemptResult)

    /// Whether the App Store would count this as delivered: HTTP 200 and nothing else.
    public var isSuccess: Bool { self == .response(statusCode: 200) }

    /// The HTTP status code, when the server answered.
    public var statusCode: Int? {
        if case .response(let statusCode) = self { return statusCode }
        return nil
    }

    /// Apple's `sendAttemptResult` for this outcome.
    public var sendAttemptResult: SendAttemptResult {
        switch self {
        case .response(let statusCode):
            return statusCode == 200 ? .success : .unsuccessfulHTTPResponseCode
        case .failure(let result):
            return result
        }
    }
}
