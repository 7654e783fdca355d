import AppStoreAPI
import Foundation
import PlayModel

/// Why a call to Google (the token endpoint or the Android Publisher API) failed.
///
/// For an HTTP error, ``httpStatus`` holds the status and ``reason`` and ``googleStatus``
/// hold what Google's error envelope (``GoogleErrorResponse``) or the token endpoint's
/// OAuth error says. ``isRetryable`` says whether the same call may succeed later.
public struct GooglePlayAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Hashable, Sendable {
        /// The request could not be built: a URL, a body, or the service account's assertion.
        case invalidRequest = "invalid_request"
        /// No response arrived: connection, TLS or timeout.
        case transportFailed = "transport_failed"
        /// The token endpoint refused the service account's assertion, or failed.
        case authorizationFailed = "authorization_failed"
        /// The API answered with a non-2xx status.
        case httpError = "http_error"
        /// A 2xx body is not the documented response.
        case undecodableResponse = "undecodable_response"
    }

    /// What went wrong.
    public var kind: Kind
    /// The HTTP status, when a response arrived.
    public var httpStatus: Int?
    /// Google's stable reason: the first `errors[].reason` of the envelope
    /// (`notFound`, `purchaseTokenDoesNotMatchProductId`, `invalidPurchaseState`, …), or the
    /// token endpoint's `error` (`invalid_grant`).
    public var reason: String?
    /// Google's canonical status name (`NOT_FOUND`, `FAILED_PRECONDITION`, …), when given.
    public var googleStatus: String?
    /// Details for a person: Google's message or the underlying error.
    public var message: String

    /// Creates an error.
    public init(
        kind: Kind, httpStatus: Int? = nil, reason: String? = nil, googleStatus: String? = nil, message: String
    ) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.reason = reason
        self.googleStatus = googleStatus
        self.message = message
    }

    /// Whether the same call may succeed later: transport failures, and HTTP 429 and 5xx
    /// (from the API or the token endpoint). Any other 4xx will not pass by itself.
    public var isRetryable: Bool {
        switch kind {
        case .transportFailed: true
        case .httpError, .authorizationFailed:
            httpStatus.map { $0 == 429 || $0 >= 500 } ?? true
        case .invalidRequest, .undecodableResponse: false
        }
    }

    /// Whether the API found no such resource (HTTP 404): an unknown purchase token, or an
    /// unknown package name (``reason`` `applicationNotFound`).
    public var isNotFound: Bool { kind == .httpError && httpStatus == 404 }

    /// Whether the API refused the access token (HTTP 401).
    public var isUnauthorized: Bool { kind == .httpError && httpStatus == 401 }

    public var description: String {
        var text = "Google Play Developer API: \(kind.rawValue)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let reason { text += " reason \(reason)" }
        return text + ": " + message
    }

    /// The error for a non-2xx API response, reading Google's error envelope when there is one.
    static func http(_ response: HTTPResponseData) -> GooglePlayAPIError {
        let envelope = try? JSONDecoder().decode(GoogleErrorResponse.self, from: response.body)
        return GooglePlayAPIError(
            kind: .httpError, httpStatus: response.status, reason: envelope?.error.errors?.first?.reason,
            googleStatus: envelope?.error.status,
            message: envelope.map { String($0.error.message.prefix(512)) }
                ?? "HTTP \(response.status) without Google's error body")
    }
}
