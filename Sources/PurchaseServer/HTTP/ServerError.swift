import Foundation
import Hummingbird
import Ledger

/// A refusal the server answers with: a stable machine-readable ``code`` (the `error` field
/// of the JSON body), an HTTP ``status`` and a ``message`` for people.
public struct ServerError: Error, HTTPResponseError, Hashable, CustomStringConvertible {
    /// The stable code, snake_case.
    public var code: String
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// What went wrong, for a person.
    public var message: String
    /// The `Retry-After` seconds the answer carries, if any.
    public var retryAfterSeconds: Int?

    /// Creates an error.
    public init(_ code: String, _ message: String, status: HTTPResponse.Status, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// `{"error": code, "message": message}` with ``status`` (and `WWW-Authenticate: Bearer`
    /// on 401, `Retry-After` when ``retryAfterSeconds`` is set).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = APIResponse.json(ErrorBody(error: code, message: message), status: status)
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfterSeconds { response.headers[.retryAfter] = "\(retryAfterSeconds)" }
        return response
    }

    /// The JSON body of every error answer.
    struct ErrorBody: Codable, Hashable {
        var error: String
        var message: String
    }
}

extension ServerError {
    /// The request lacks a credential.
    static func missingCredentials(_ what: String) -> ServerError {
        ServerError("missing_credentials", "send Authorization: Bearer <\(what)>", status: .unauthorized)
    }

    /// The player token is malformed, wrongly signed or lacks `sub`.
    static func invalidToken(_ message: String) -> ServerError {
        ServerError("invalid_token", message, status: .unauthorized)
    }

    /// The player token's `exp` has passed.
    static let tokenExpired = ServerError("token_expired", "the player token has expired", status: .unauthorized)

    /// An admin endpoint was called without the admin key.
    static let adminCredentialRequired = ServerError(
        "admin_credential_required", "this endpoint needs the admin key", status: .unauthorized)

    /// The body is larger than the configured limit.
    static func bodyTooLarge(limit: Int) -> ServerError {
        ServerError("body_too_large", "the request body exceeds \(limit) bytes", status: .contentTooLarge)
    }

    /// The body did not arrive whole within ``LoadSettings/bodyTimeoutSeconds``.
    static func bodyTimeout(seconds: Double) -> ServerError {
        ServerError(
            "body_timeout", "the request body did not arrive whole within \(seconds) s", status: .requestTimeout)
    }

    /// The body is not the JSON the endpoint expects.
    static func invalidRequest(_ message: String) -> ServerError {
        ServerError("invalid_request", message, status: .badRequest)
    }

    /// A field that names something (a player, an order, a transaction, a product) holds
    /// text that is not an identifier (``IdentifierRule``): control or invisible characters,
    /// white space, a variant spelling that is not in normalization form NFKC, or a length out
    /// of bounds. The message names the field and the offending code point, never the text.
    static func invalidIdentifier(_ field: String, _ problem: IdentifierProblem) -> ServerError {
        ServerError("invalid_identifier", "\(field) is not an identifier: \(problem)", status: .badRequest)
    }

    /// No product with this id is sold.
    static func unknownProduct(_ productId: String) -> ServerError {
        ServerError("unknown_product", "no product \(productId) in the catalog", status: .notFound)
    }

    /// No order with this id.
    static func unknownOrder(_ orderId: String) -> ServerError {
        ServerError("unknown_order", "no order \(orderId)", status: .notFound)
    }

    /// An admin lookup found nothing.
    static func notFound(_ what: String) -> ServerError {
        ServerError("not_found", "no \(what)", status: .notFound)
    }

    /// A feature needs configuration that is missing.
    static func notConfigured(_ what: String) -> ServerError {
        ServerError("not_configured", "\(what) is not configured on this server", status: .serviceUnavailable)
    }

    /// Apple (or the emulator) could not be reached or answered with an error; try later.
    static func appleUnavailable(_ message: String) -> ServerError {
        ServerError("apple_unavailable", message, status: .serviceUnavailable)
    }

    /// The database failed (a full disk, an unwritable file, an unreachable server); nothing
    /// was changed and the request can be retried, after ``storageRetryAfterSeconds``
    /// (`Retry-After`).
    static func storageUnavailable(_ message: String) -> ServerError {
        ServerError(
            "storage_unavailable", message, status: .serviceUnavailable, retryAfterSeconds: storageRetryAfterSeconds)
    }

    /// The server works on as many requests as it takes at once
    /// (``LoadSettings/maximumRequestsInFlight``); this one was not started: retry after
    /// `retryAfterSeconds`.
    static func overloaded(retryAfterSeconds: Int) -> ServerError {
        ServerError(
            "overloaded", "the server is at capacity; nothing was done, retry after \(retryAfterSeconds) s",
            status: .serviceUnavailable, retryAfterSeconds: retryAfterSeconds)
    }

    /// The `Retry-After` of every `storage_unavailable` answer.
    static let storageRetryAfterSeconds = StorageFault.retryAfterSeconds
}
