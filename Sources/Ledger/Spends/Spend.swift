import Foundation

/// A debit of a player's wallet that the game asked for (virtual currency spent in the
/// game), recorded once per idempotency key.
public struct Spend: Sendable, Hashable, Codable {
    /// The player whose wallet was debited.
    public var playerId: String
    /// The game's key for this spend: the same key again is the same spend.
    public var idempotencyKey: String
    /// What was debited, item → amount (positive).
    public var items: Grants
    /// Why, in the game's words.
    public var reason: String
    /// Who asked (the admin credential's caller as it names itself; `"admin"` by default).
    public var actor: String
    /// The balances of the debited items after the spend.
    public var balances: [String: Int64]
    /// When it was recorded.
    public var createdAt: Date

    /// The longest idempotency key, in characters (Unicode scalars).
    public static let maximumIdempotencyKeyLength = 128

    /// Creates a spend value.
    public init(
        playerId: String, idempotencyKey: String, items: Grants, reason: String, actor: String,
        balances: [String: Int64], createdAt: Date
    ) {
        self.playerId = playerId
        self.idempotencyKey = idempotencyKey
        self.items = items
        self.reason = reason
        self.actor = actor
        self.balances = balances
        self.createdAt = createdAt
    }
}

/// What the game asks to spend.
public struct SpendRequest: Sendable, Hashable {
    /// The player whose wallet is debited.
    public var playerId: String
    /// The game's key: retrying with it never debits twice.
    public var idempotencyKey: String
    /// What to debit, item → amount (each at least 1).
    public var items: Grants
    /// Why.
    public var reason: String
    /// Who asks.
    public var actor: String

    /// Creates a request.
    public init(playerId: String, idempotencyKey: String, items: Grants, reason: String, actor: String) {
        self.playerId = playerId
        self.idempotencyKey = idempotencyKey
        self.items = items
        self.reason = reason
        self.actor = actor
    }
}

/// The answer to a spend: the spend as recorded, and whether this call recorded it or
/// found it recorded by an earlier call with the same key.
public struct SpendResult: Sendable, Hashable {
    /// The spend.
    public var spend: Spend
    /// `true` when an earlier call recorded it: nothing was debited now.
    public var replayed: Bool

    /// Creates a result.
    public init(spend: Spend, replayed: Bool) {
        self.spend = spend
        self.replayed = replayed
    }
}
