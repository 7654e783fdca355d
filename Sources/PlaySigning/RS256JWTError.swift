/// Why ``RS256JWT`` refused a token, with a stable code.
public struct RS256JWTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable reasons.
    public enum Code: String, Sendable, Hashable {
        /// Not three base64url segments, or a header or claims that are not the JSON expected.
        case malformedJWT = "malformed_jwt"
        /// The header's `alg` is not `RS256`.
        case unsupportedAlgorithm = "unsupported_algorithm"
        /// No key in the set has the header's `kid` (or the header has none).
        case unknownKey = "unknown_key"
        /// The signature does not verify with the key.
        case badSignature = "bad_signature"
    }

    /// The reason.
    public var code: Code
    /// Details, for a person.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
