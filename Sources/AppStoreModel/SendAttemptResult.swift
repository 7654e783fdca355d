/// The outcome of one attempt by the App Store to deliver a notification to the app's
/// server (Apple's `sendAttemptResult`).
///
/// Unknown values decode unchanged.
public struct SendAttemptResult: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the outcome.
    public var rawValue: String

    /// Creates an outcome from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The server answered HTTP 200.
    public static let success: SendAttemptResult = "SUCCESS"
    /// The server did not answer in time.
    public static let timedOut: SendAttemptResult = "TIMED_OUT"
    /// The TLS connection could not be established (e.g. an untrusted certificate).
    public static let tlsIssue: SendAttemptResult = "TLS_ISSUE"
    /// The server's redirects formed a loop.
    public static let circularRedirect: SendAttemptResult = "CIRCULAR_REDIRECT"
    /// The server sent no response.
    public static let noResponse: SendAttemptResult = "NO_RESPONSE"
    /// The connection failed at the socket level.
    public static let socketIssue: SendAttemptResult = "SOCKET_ISSUE"
    /// The response used a character set the App Store does not support.
    public static let unsupportedCharset: SendAttemptResult = "UNSUPPORTED_CHARSET"
    /// The response was not valid HTTP.
    public static let invalidResponse: SendAttemptResult = "INVALID_RESPONSE"
    /// The server closed the connection before the response was complete.
    public static let prematureClose: SendAttemptResult = "PREMATURE_CLOSE"
    /// The server answered with a status other than 200.
    public static let unsuccessfulHTTPResponseCode: SendAttemptResult = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    /// Another error.
    public static let other: SendAttemptResult = "OTHER"
}
