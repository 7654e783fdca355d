import Foundation
import Ledger
import PlayerAuth
import Synchronization

/// Player tokens: compact JWTs signed with HS256 by the game's login server, carrying the
/// player id in `sub` and an expiry in `exp` (seconds since 1970).
///
/// The parsing lives in `PlayerAuth` (``PlayerTokenKey``); this maps its refusals to the
/// server's errors.
public struct PlayerTokenVerifier: Sendable {
    private let key: PlayerTokenKey
    /// Tokens whose signature verified, by their exact text: a player's next request with
    /// the same token skips decoding and the HMAC, and only the clock is checked again.
    private let verified = VerifiedTokens()
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
    ///   `sub`, a `sub` that is not an identifier (``IdentifierRule``), no `exp`) or
    ///   `token_expired`.
    public func playerId(from token: String, now: Date = Date()) throws(ServerError) -> String {
        do throws(PlayerTokenError) {
            // Only ASCII text is looked up: `String` equality is canonical equivalence, and a
            // compact JWT is ASCII, so for it equal strings are equal bytes.
            let cacheable = token.utf8.allSatisfy { $0 < 0x80 }
            if cacheable, let claims = verified.claims(of: token) {
                return try claims.playerId(at: now, leeway: leeway)
            }
            let claims = try key.claims(from: token)
            let playerId = try claims.playerId(at: now, leeway: leeway)
            // Only tokens whose player id is an identifier are remembered, so the lookup
            // above never answers one that is not.
            if let problem = Self.problem(withPlayerId: playerId) {
                throw PlayerTokenError.invalid("the token's sub is not a player id: \(problem)")
            }
            if cacheable { verified.remember(claims, of: token) }
            return playerId
        } catch {
            switch error {
            case .invalid(let message): throw .invalidToken(message)
            case .expired: throw .tokenExpired
            }
        }
    }

    /// Why `playerId` cannot be a player id (``IdentifierRule``, at most 256 characters), or
    /// `nil` when it can.
    public static func problem(withPlayerId playerId: String) -> IdentifierProblem? {
        IdentifierRule.problem(with: playerId, maximumLength: IdentifierKind.playerId.maximumLength)
    }

    /// How long the tokens `storekeeper token` and `serve --dev`'s banner print stay valid:
    /// 7 days, long enough for a week of trying things by hand.
    public static let developmentLifetime: TimeInterval = 7 * 86_400

    /// Issues a token for `playerId`, as a game's login server would: for `--dev`, tests and
    /// the load generator.
    public static func issue(playerId: String, secret: String, lifetime: TimeInterval = 3_600, now: Date = Date())
        -> String
    {
        PlayerTokenKey(secret: secret).issue(playerId: playerId, lifetime: lifetime, now: now)
    }
}

/// The claims of tokens verified with one key, by token text, at most ``capacity`` of them
/// (forgotten all at once when full: a token missing here is simply verified again).
private final class VerifiedTokens: Sendable {
    static let capacity = 10_000
    private let claimsByToken = Mutex<[String: PlayerTokenClaims]>([:])

    func claims(of token: String) -> PlayerTokenClaims? {
        claimsByToken.withLock { $0[token] }
    }

    func remember(_ claims: PlayerTokenClaims, of token: String) {
        claimsByToken.withLock { claimsByToken in
            if claimsByToken.count >= Self.capacity { claimsByToken.removeAll(keepingCapacity: true) }
            claimsByToken[token] = claims
        }
    }
}
