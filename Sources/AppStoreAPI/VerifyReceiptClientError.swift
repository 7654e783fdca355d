import AppStoreModel

/// Why a verifyReceipt call produced no ``VerifyReceiptResponse``.
///
/// A response with a non-zero `status` is not an error: ``VerifyReceiptClient`` returns it
/// so that the caller can decide (see ``VerifyReceiptStatus/isRetryable``).
public struct VerifyReceiptClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Hashable, Sendable {
        /// The request could not be built (e.g. a base URL that cannot take the path).
        case invalidRequest = "invalid_request"
        /// No response arrived: connection, TLS or timeout.
        case transportFailed = "transport_failed"
        /// The endpoint answered with an HTTP status other than 200.
        case unexpectedStatus = "unexpected_status"
        /// The body is not a verifyReceipt response.
        case undecodableResponse = "undecodable_response"
    }

    /// What went wrong.
    public var kind: Kind
    /// The environment whose endpoint was called.
    public var environment: AppStoreEnvironment
    /// The HTTP status, when a response arrived.
    public var httpStatus: Int?
    /// Details for a person: the underlying error or the start of the body.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, environment: AppStoreEnvironment, httpStatus: Int? = nil, message: String) {
        self.kind = kind
        self.environment = environment
        self.httpStatus = httpStatus
        self.message = message
    }

    /// Whether the same call may succeed later: transport failures, 429 and 5xx.
    public var isRetryable: Bool {
        switch kind {
        case .transportFailed: true
        case .unexpectedStatus: httpStatus.map { $0 == 429 || $0 >= 500 } ?? false
        case .invalidRequest, .undecodableResponse: false
        }
    }

    public var description: String {
        let status = httpStatus.map { " (HTTP \($0))" } ?? ""
        return "verifyReceipt \(environment): \(kind.rawValue)\(status): \(message)"
    }
}
