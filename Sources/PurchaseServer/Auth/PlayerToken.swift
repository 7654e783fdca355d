import AppStoreSigning
import Crypto
import Foundation

/// Player tokens: compact JWTs signed with HS256 by the game's login server, carrying the
/// player id in `sub` and an expiry in `exp` (seconds since 1970).
public struct PlayerTokenVerifier: Sendable {
    private let key: SymmetricKey
    /// Seconds of clock difference tolerated on `exp` and `nbf`.
    public let leeway: TimeInterval

    /// Creates a verifier for tokens signed with `secret`.
    public init(secret: String, leeway: TimeInterval = 30) {
        self.key = SymmetricKey(data: Data(secret.utf8))
        self.leeway = leeway
    }

    /// The player id of a valid token.
    ///
    /// - Throws: ``ServerError`` `invalid_token` (malformed, not HS256, bad signature, no
    ///   `sub`, no `exp`) or `token_expired`.
    public func playerId(from token: String, now: Date = Date()) throws(ServerError) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 4_096 else { throw .invalidToken("not a compact JWT") }
        guard let headerData = Data(base64URLEncoded: parts[0]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw .invalidToken("the JWT header is not valid base64url JSON") }
        guard header.alg == "HS256" else { throw .invalidToken("the JWT must be signed with HS256") }
        guard let signature = Data(base64URLEncoded: parts[2]),
            HMAC<SHA256>.isValidAuthenticationCode(
                signature, authenticating: Data("\(parts[0]).\(parts[1])".utf8), using: key)
        else { throw .invalidToken("the JWT signature does not verify") }
        guard let claimsData = Data(base64URLEncoded: parts[1]),
            let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else { throw .invalidToken("the JWT claims are not valid base64url JSON") }
        guard let subject = claims.sub, !subject.isEmpty, subject.utf8.count <= 256 else {
            throw .invalidToken("the JWT has no sub (player id)")
        }
        guard let expiry = claims.exp else { throw .invalidToken("the JWT has no exp") }
        let time = now.timeIntervalSince1970
        guard expiry + leeway > time else { throw .tokenExpired }
        if let notBefore = claims.nbf, notBefore - leeway > time { throw .invalidToken("the JWT is not valid yet") }
        return subject
    }

    /// Issues a token for `playerId`, as a game's login server would: for `--dev`, tests and
    /// the load generator.
    public static func issue(playerId: String, secret: String, lifetime: TimeInterval = 3_600, now: Date = Date())
        -> String
    {
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64URLEncodedString
        let claims = Claims(sub: playerId, exp: (now.timeIntervalSince1970 + lifetime).rounded(.down), nbf: nil)
        let payload = ((try? JSONEncoder().encode(claims)) ?? Data()).base64URLEncodedString
        let signingInput = "\(header).\(payload)"
        let signature = HMAC<SHA256>.authenticationCode(
            for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
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

extension Data {
    /// Decodes unpadded base64url (`-` and `_`, no `=`).
    init?(base64URLEncoded text: Substring) {
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
