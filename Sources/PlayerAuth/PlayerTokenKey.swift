import AppStoreSigning
import Crypto
import Foundation

/// The shared secret of player tokens: compact JWTs signed with HS256 by the game's login
/// server, carrying the player id in `sub` and an expiry in `exp` (seconds since 1970).
///
/// The key both verifies tokens (the purchase server) and issues them (the login server,
/// or `--dev`, tests and the load generator). It depends on swift-crypto and
/// `AppStoreSigning` (base64url) only, not on the server, so the token parser can be
/// fuzzed without building Hummingbird, NIO and the databases with sanitizers.
public struct PlayerTokenKey: Sendable {
    private let key: SymmetricKey

    /// The longest token accepted, in UTF-8 bytes.
    public static let maximumTokenLength = 4_096
    /// The longest player id (`sub`) accepted, in UTF-8 bytes.
    public static let maximumPlayerIdLength = 256

    /// Creates the key for tokens signed with `secret`.
    public init(secret: String) {
        self.key = SymmetricKey(data: Data(secret.utf8))
    }

    /// The player id of a valid token.
    ///
    /// Checks, in order: three dot-separated parts within ``maximumTokenLength``; the header
    /// is base64url JSON with `alg` HS256; the HMAC-SHA256 signature; the claims are
    /// base64url JSON with a non-empty `sub` of at most ``maximumPlayerIdLength`` bytes and
    /// an `exp`; `exp` (plus `leeway`) is after `now`; `nbf`, when present, is not after
    /// `now` (plus `leeway`).
    ///
    /// - Parameters:
    ///   - token: the compact JWT.
    ///   - now: the time to check `exp` and `nbf` against.
    ///   - leeway: seconds of clock difference tolerated on `exp` and `nbf`.
    /// - Throws: ``PlayerTokenError/invalid(_:)`` or ``PlayerTokenError/expired``.
    public func playerId(from token: String, now: Date = Date(), leeway: TimeInterval = 30) throws(PlayerTokenError)
        -> String
    {
        try claims(from: token).playerId(at: now, leeway: leeway)
    }

    /// The claims of a token whose form and signature are valid (every check of
    /// ``playerId(from:now:leeway:)`` but the clock's): what a verifier may keep for a token
    /// it sees again, checking only ``PlayerTokenClaims/playerId(at:leeway:)`` then.
    ///
    /// - Throws: ``PlayerTokenError/invalid(_:)``.
    public func claims(from token: String) throws(PlayerTokenError) -> PlayerTokenClaims {
        guard token.utf8.count <= Self.maximumTokenLength else { throw .invalid("not a compact JWT") }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .invalid("not a compact JWT") }
        guard let headerData = Data(base64URLEncoded: parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw .invalid("the JWT header is not valid base64url JSON") }
        guard header.alg == "HS256" else { throw .invalid("the JWT must be signed with HS256") }
        guard let signature = Data(base64URLEncoded: parts[2]),
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8), using: key)
        else { throw .invalid("the JWT signature does not verify") }
        guard let claimsData = Data(base64URLEncoded: parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else { throw .invalid("the JWT claims are not valid base64url JSON") }
        guard let subject = claims.sub, !subject.isEmpty, subject.utf8.count <= Self.maximumPlayerIdLength else {
            throw .invalid("the JWT has no sub (player id)")
        }
        guard let expiry = claims.exp else { throw .invalid("the JWT has no exp") }
        return PlayerTokenClaims(playerId: subject, expiry: expiry, notBefore: claims.nbf)
    }

    /// Issues a token for `playerId` expiring `lifetime` seconds after `now` (rounded down
    /// to a whole second), as a game's login server would.
    public func issue(playerId: String, lifetime: TimeInterval = 3_600, now: Date = Date()) -> String {
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64URLEncodedString
        let claims = Claims(sub: playerId, exp: (now.timeIntervalSince1970 + lifetime).rounded(.down), nbf: nil)
        let payload = ((try? JSONEncoder().encode(claims)) ?? Data()).base64URLEncodedString
        let signingInput = "\(header).\(payload)"
        let signature = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
        return "\(signingInput).\(Data(signature).base64URLEncodedString)"
    }

    private struct Header: Decodable {
        var alg: String
    }

    private struct Claims: Codable {
        var sub: String?
        var exp: Double?
        var nbf: Double?
    }
}

/// What a validly signed player token says: who, and when it is valid.
public struct PlayerTokenClaims: Sendable, Hashable {
    /// The player id (`sub`).
    public let playerId: String
    /// `exp`, seconds since 1970.
    public let expiry: Double
    /// `nbf`, seconds since 1970, when the token has one.
    public let notBefore: Double?

    /// The player id if the token is valid at `now`: `exp` (plus `leeway`) is after it and
    /// `nbf`, when present, is not (less `leeway`).
    ///
    /// - Throws: ``PlayerTokenError/expired`` or ``PlayerTokenError/invalid(_:)`` (not valid yet).
    public func playerId(at now: Date, leeway: TimeInterval) throws(PlayerTokenError) -> String {
        let time = now.timeIntervalSince1970
        guard expiry + leeway > time else { throw .expired }
        if let notBefore, notBefore - leeway > time { throw .invalid("the JWT is not valid yet") }
        return playerId
    }
}

/// Why ``PlayerTokenKey`` refused a token.
public enum PlayerTokenError: Error, Hashable, Sendable {
    /// The token is malformed, not HS256, wrongly signed, lacks `sub` or `exp`, or is not
    /// valid yet; the message says which.
    case invalid(String)
    /// The token's `exp` has passed.
    case expired
}

extension Data {
    /// Decodes unpadded base64url (`-` and `_`, no `=`).
    fileprivate init?(base64URLEncoded text: Substring) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
            default: bytes.append(byte)
            }
        }
        bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        self.init(base64Encoded: Data(bytes))
    }
}
