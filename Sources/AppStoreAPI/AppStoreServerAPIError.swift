import AppStoreModel
import Foundation

/// Why an App Store Server API call failed.
///
/// For an HTTP error, ``httpStatus`` holds the status and ``errorCode`` and
/// ``errorMessage`` hold Apple's `{errorCode, errorMessage}` body when there was one.
/// ``isRetryable`` says whether the same call may succeed later.
public struct AppStoreServerAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Hashable, Sendable {
        /// The request could not be built: a URL, a body, or the bearer token.
        case invalidRequest = "invalid_request"
        /// No response arrived: connection, TLS or timeout.
        case transportFailed = "transport_failed"
        /// The API answered with a non-2xx status.
        case httpError = "http_error"
        /// A 2xx body is not the documented response.
        case undecodableResponse = "undecodable_response"
        /// Paging did not end: `hasMore` without a new `revision`, or too many pages.
        case paginationFailed = "pagination_failed"
    }

    /// What went wrong.
    public var kind: Kind
    /// The HTTP status, when a response arrived.
    public var httpStatus: Int?
    /// Apple's error code from the body, if any.
    public var errorCode: APIErrorCode?
    /// Apple's error message from the body, if any.
    public var errorMessage: String?
    /// The `Retry-After` delay in seconds, when the response carried one as a number of
    /// seconds: finite and not negative.
    public var retryAfter: TimeInterval?
    /// Details for a person: the underlying error or the start of the body.
    public var message: String

    /// Creates an error.
    public init(
        kind: Kind,
        httpStatus: Int? = nil,
        errorCode: APIErrorCode? = nil,
        errorMessage: String? = nil,
        retryAfter: TimeInterval? = nil,
        message: String
    ) {
        self.kind = kind
        self.httpStatus = httpStatus
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.retryAfter = retryAfter
        self.message = message
    }

    /// Whether the same call may succeed later: transport failures, HTTP 429 and 5xx, and
    /// Apple's retryable error codes (``APIErrorCode/isRetryable``, e.g. 4040002).
    public var isRetryable: Bool {
        switch kind {
        case .transportFailed:
            return true
        case .httpError:
            if let httpStatus, httpStatus == 429 || httpStatus >= 500 { return true }
            return errorCode?.isRetryable ?? false
        case .invalidRequest, .undecodableResponse, .paginationFailed:
            return false
        }
    }

    /// Whether the API rejected the bearer token (HTTP 401).
    public var isUnauthorized: Bool { kind == .httpError && httpStatus == 401 }

    /// Whether the API found no such resource (HTTP 404), e.g. an unknown transaction id.
    public var isNotFound: Bool { kind == .httpError && httpStatus == 404 }

    public var description: String {
        var text = "App Store Server API: \(kind.rawValue)"
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        if let errorCode { text += " errorCode \(errorCode)" }
        if let errorMessage { text += " \"\(errorMessage)\"" }
        return text + ": " + message
    }

    /// The error for a non-2xx response, reading Apple's error body when there is one.
    static func http(_ response: HTTPResponseData) -> AppStoreServerAPIError {
        let body = try? APIJSON.decode(APIErrorResponse.self, from: response.body)
        // Only a real delay: "nan", "inf" or "-5" parse as numbers but are none.
        let retryAfter = response.headerValue("Retry-After").flatMap {
            TimeInterval($0.trimmingCharacters(in: .whitespaces))
        }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        return AppStoreServerAPIError(
            kind: .httpError, httpStatus: response.status, errorCode: body?.errorCode,
            errorMessage: body?.errorMessage, retryAfter: retryAfter,
            message: APIJSON.excerpt(response.body) ?? "empty body")
    }
}
