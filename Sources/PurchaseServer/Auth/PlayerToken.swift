import Foundation
import PlayerAuth

/// Player tokens: compact JWTs signed with HS256 by the game's login server, carrying the
/// player id in `sub` and an expiry in `exp` (seconds since 1970).
///
/// The parsing lives in `PlayerAuth` (``PlayerTokenKey``); this maps its refusals to the
/// server's errors.
public struct PlayerTokenVerifier: Sendable {
    private let key: PlayerTokenKey
    /// Seconds of clock difference tolerated on `exp` and `nbf`.
    public let leeway: TimeInterval

    /// Creates a verifier for tokens signed with `secret`.
    public init(secret: String, leeway: TimeInterval = 30) {
        self.key = PlayerTokenKey(secret: secret)
        self.leeway = leeway
    }

    /// The player id of a valid token.
    ///
    /// - Throws: ``ServerError`` `invalid_token` (malformed, not HS256, bad signature, no
    ///   `sub`, no `exp`) or `token_expired`.
    public func playerId(from token: String, now: Date = Date()) throws(ServerError) -> String {
        do throws(PlayerTokenError) {
            return try key.playerId(from: token, now: now, leeway: leeway)
        } catch {
            switch error {
            case .invalid(let message): throw .invalidToken(message)
            case .expired: throw .tokenExpired
            }
        }
    }

    /// Issues a token for `playerId`, as a game's login server would: for `--dev`, tests and
    /// the load generator.
    public static func issue(playerId: String, secret: String, lifetime: TimeInterval = 3_600, now: Date = Date())
        -> String
    {
        PlayerTokenKey(secret: secret).issue(playerId: playerId, lifetime: lifetime, now: now)
    }
}
