import Foundation

/// The JSON body the outbox sends to the game server's webhook for a spend, enqueued in the
/// spend's own transaction. Its idempotency key is ``idempotencyKey(playerId:spendKey:)``.
public struct SpendMessage: Sendable, Hashable, Codable {
    /// Always `"spend"`.
    public var kind = "spend"
    /// The player whose wallet was debited.
    public var playerId: String
    /// The game's idempotency key of the spend.
    public var idempotencyKey: String
    /// What was debited, item → amount (positive).
    public var items: Grants
    /// The balances of those items after it.
    public var balances: [String: Int64]
    /// Why.
    public var reason: String
    /// When it was recorded, in epoch milliseconds (as every date the webhook sends).
    public var createdAt: Int64

    /// The message announcing `spend`.
    public init(_ spend: Spend) {
        playerId = spend.playerId
        idempotencyKey = spend.idempotencyKey
        items = spend.items
        balances = spend.balances
        reason = spend.reason
        createdAt = spend.createdAt.ledgerMilliseconds
    }

    /// The outbox key of a player's spend: `spend:<length of the player id>:<player id>:<key>`
    /// (the length keeps a player id holding `:` from meeting another player's key).
    public static func idempotencyKey(playerId: String, spendKey: String) -> String {
        "spend:\(playerId.unicodeScalars.count):\(playerId):\(spendKey)"
    }
}
