import AppStoreModel

/// The outcome of one attempt to send a notification, as Apple reports it in
/// `sendAttemptResult` (notification history and `sendAttempts`).
///
/// Unknown values are kept unchanged.
public struct NotificationSendAttemptResult: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the result.
    public var rawValue: String

    /// Creates a result from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The server answered with HTTP 200.
    public static let success: NotificationSendAttemptResult = "SUCCESS"
    /// The server answered with a status code other than 200.
    public static let unsuccessfulHTTPResponseCode: NotificationSendAttemptResult = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    /// The server did not answer in time.
    public static let timedOut: NotificationSendAttemptResult = "TIMED_OUT"
    /// The server sent no valid HTTP response.
    public static let noResponse: NotificationSendAttemptResult = "NO_RESPONSE"
    /// The connection could not be made or failed (refused, reset, unreachable).
    public static let socketIssue: NotificationSendAttemptResult = "SOCKET_ISSUE"
    /// The TLS handshake failed.
    public static let tlsIssue: NotificationSendAttemptResult = "TLS_ISSUE"
    /// The server redirected in a loop.
    public static let circularRedirect: NotificationSendAttemptResult = "CIRCULAR_REDIRECT"
    /// The server sent a response that could not be read as HTTP.
    public static let invalidResponse: NotificationSendAttemptResult = "INVALID_RESPONSE"
    /// The server closed the connection before it finished its response.
    public static let prematureClose: NotificationSendAttemptResult = "PREMATURE_CLOSE"
    /// The response used a character set Apple does not support.
    public static let unsupportedCharset: NotificationSendAttemptResult = "UNSUPPORTED_CHARSET"
    /// Any other failure.
    public static let other: NotificationSendAttemptResult = "OTHER"
}
