/// Why an App Store Server API bearer token was rejected.
///
/// ``code`` is stable and machine-readable (its raw value is the snake_case string an
/// emulator puts in its 401 answer); ``message`` says, for a person, which check failed.
public struct AppStoreServerAPITokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable reason codes.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// No `Authorization: Bearer` header was sent.
        case missingToken = "missing_token"
        /// The token is not a compact JWT with a JSON header and the required claims.
        case malformedToken = "malformed_token"
        /// The header's `alg` is not ES256.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// The header's `kid` is absent or names no registered key.
        case unknownKey = "unknown_key"
        /// The signature does not verify with the registered key.
        case signatureInvalid = "signature_invalid"
        /// `aud` is not `appstoreconnect-v1`.
        case wrongAudience = "wrong_audience"
        /// `iss` is not the issuer id registered with the key.
        case wrongIssuer = "wrong_issuer"
        /// `bid` is not a bundle id registered with the key.
        case wrongBundleId = "wrong_bundle_id"
        /// `exp` has passed (allowing for clock skew).
        case tokenExpired = "token_expired"
        /// `exp` is more than 60 minutes after `iat` (after now, for a token without
        /// `iat`), or before `iat`.
        case lifetimeTooLong = "lifetime_too_long"
        /// `iat` is in the future (allowing for clock skew).
        case notYetValid = "not_yet_valid"
    }

    /// The stable reason code.
    public var code: Code
    /// A human-readable account of the failed check.
    public var message: String

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
