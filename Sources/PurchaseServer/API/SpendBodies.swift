import Foundation
import Ledger

/// `POST /v1/admin/players/{playerId}/spends`: what the game server spends from the
/// player's wallet.
struct SpendRequestBody: Codable, Hashable, Sendable {
    /// The game's key for this spend: sending it again answers the same spend and debits
    /// nothing.
    var idempotencyKey: String
    /// What to debit, item → amount (each at least 1).
    var items: Grants
    /// Why, for the player's history.
    var reason: String
    /// Who spends, for the history; "admin" when absent.
    var actor: String?
}

/// The answer to a spend (201 when recorded now, 200 when an earlier call with the same key
/// recorded it).
struct SpendAnswer: Codable, Hashable, Sendable {
    var playerId: String
    var idempotencyKey: String
    var items: Grants
    var reason: String
    var actor: String
    /// The balances of the debited items after the spend.
    var balances: [String: Int64]
    /// When it was recorded, in epoch milliseconds.
    var createdAt: Int64
    /// `true` when an earlier call recorded it.
    var replayed: Bool

    init(_ result: SpendResult) {
        playerId = result.spend.playerId
        idempotencyKey = result.spend.idempotencyKey
        items = result.spend.items
        reason = result.spend.reason
        actor = result.spend.actor
        balances = result.spend.balances
        createdAt = Int64((result.spend.createdAt.timeIntervalSince1970 * 1_000).rounded())
        replayed = result.replayed
    }
}
