import Foundation

/// The claims of the JSON Web Token that authorizes a request to the App Store Server API.
///
/// Apple's token is ES256-signed, with the header `{"alg":"ES256","kid":<key id>,"typ":"JWT"}`
/// and these claims: `iss` (the issuer id from App Store Connect), `iat` (optional: Apple's
/// own server libraries leave it out) and `exp` (seconds since 1970; at most 60 minutes
/// after `iat`, or after the time of the request when there is no `iat`), `aud` (always
/// `appstoreconnect-v1`) and `bid` (the app's bundle id). Property names are descriptive; the JSON keys are the
/// registered claim names.
public struct AppStoreServerAPIClaims: Hashable, Codable, Sendable {
    /// The audience every App Store Server API token names: `appstoreconnect-v1`.
    public static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts, `exp - iat` (or `exp - now` without `iat`):
    /// 60 minutes.
    public static let maximumLifetime: TimeInterval = 3600

    /// `iss`: the issuer id of the team's API keys, from App Store Connect.
    public var issuerId: String
    /// `iat`: when the token was issued, in seconds since 1970; `nil` when the token
    /// has no `iat` claim.
    public var issuedAt: Int64?
    /// `exp`: when the token expires, in seconds since 1970.
    public var expiresAt: Int64
    /// `aud`: the audience; ``audience`` for a valid token.
    public var audience: String
    /// `bid`: the bundle id of the app the requests are about.
    public var bundleId: String

    /// Creates claims from their raw values.
    ///
    /// - Parameters:
    ///   - issuerId: the issuer id (`iss`).
    ///   - issuedAt: the issue time in seconds since 1970 (`iat`); `nil` leaves the claim
    ///     out.
    ///   - expiresAt: the expiry time in seconds since 1970 (`exp`).
    ///   - audience: the audience (`aud`); Apple's by default.
    ///   - bundleId: the app's bundle id (`bid`).
    public init(
        issuerId: String, issuedAt: Int64?, expiresAt: Int64, audience: String = Self.audience, bundleId: String
    ) {
        self.issuerId = issuerId
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.audience = audience
        self.bundleId = bundleId
    }

    /// Creates claims issued at a date for a lifetime, both truncated to whole seconds.
    ///
    /// - Parameters:
    ///   - issuerId: the issuer id (`iss`).
    ///   - bundleId: the app's bundle id (`bid`).
    ///   - issuedAt: the issue time (`iat`).
    ///   - lifetime: seconds from `iat` to `exp`.
    public init(issuerId: String, bundleId: String, issuedAt: Date, lifetime: TimeInterval) {
        let issued = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        self.init(
            issuerId: issuerId, issuedAt: issued, expiresAt: issued + Int64(lifetime.rounded(.down)),
            bundleId: bundleId)
    }

    /// `iat` as a date; `nil` without `iat`.
    public var issueDate: Date? { issuedAt.map { Date(timeIntervalSince1970: TimeInterval($0)) } }

    /// `exp` as a date.
    public var expirationDate: Date { Date(timeIntervalSince1970: TimeInterval(expiresAt)) }

    /// The token's lifetime, `exp - iat`, in seconds; `nil` without `iat`.
    public var lifetime: TimeInterval? { issuedAt.map { TimeInterval(expiresAt) - TimeInterval($0) } }

    /// Decodes claims, accepting `iat` and `exp` as JSON integers or as numbers with a
    /// fraction (JWT's NumericDate allows both; the fraction is dropped). `iat` may be
    /// absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuerId = try container.decode(String.self, forKey: .issuerId)
        issuedAt = try container.contains(.issuedAt) ? Self.decodeNumericDate(container, .issuedAt) : nil
        expiresAt = try Self.decodeNumericDate(container, .expiresAt)
        audience = try container.decode(String.self, forKey: .audience)
        bundleId = try container.decode(String.self, forKey: .bundleId)
    }

    private static func decodeNumericDate(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> Int64 {
        if let seconds = try? container.decode(Int64.self, forKey: key) { return seconds }
        let value = try container.decode(Double.self, forKey: key)
        guard let seconds = Int64(exactly: value.rounded(.down)) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "\(value) is not a representable NumericDate")
        }
        return seconds
    }

    private enum CodingKeys: String, CodingKey {
        case issuerId = "iss"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case audience = "aud"
        case bundleId = "bid"
    }
}
