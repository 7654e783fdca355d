/// A player whose refunds support should look at: a balance below zero (goods spent,
/// then refunded) or repeated refunds.
public struct RefundSignal: Sendable, Hashable {
    /// The player.
    public var playerId: String
    /// The items below zero and their balances.
    public var negativeBalances: [String: Int64]
    /// How many of the player's purchases Apple refunded, in whole or in part.
    public var refundedPurchases: Int
    /// How many refunds of theirs Apple reversed.
    public var reversals: Int

    /// Creates a value.
    public init(playerId: String, negativeBalances: [String: Int64], refundedPurchases: Int, reversals: Int) {
        self.playerId = playerId
        self.negativeBalances = negativeBalances
        self.refundedPurchases = refundedPurchases
        self.reversals = reversals
    }
}
