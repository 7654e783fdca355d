import Ledger

/// The outcome of support's delivery of an owed transaction: delivered now, delivered
/// before (to ``purchase``'s player, who may be someone else), pending or refused.
package struct SupportDelivery: Sendable, Hashable {
    /// The outcome's kind.
    package enum Status: String, Sendable, Hashable {
        /// Delivered now to the player support named.
        case delivered
        /// Delivered before (see ``SupportDelivery/purchase`` for whom); nothing changed.
        case alreadyDelivered = "already_delivered"
        /// Not decided now (e.g. Apple could not be asked); try again later.
        case pending
        /// Refused for good, for ``SupportDelivery/reason`` (e.g. `transaction_revoked`).
        case rejected
    }

    /// The outcome's kind.
    package var status: Status
    /// The stable refusal reason, for `pending` and `rejected`.
    package var reason: String?
    /// A sentence for people, for `pending` and `rejected`.
    package var message: String?
    /// The transaction concerned.
    package var transactionId: String
    /// The ledger's purchase of the transaction as it stands after the attempt; `nil` when
    /// it is not delivered.
    package var purchase: Purchase?
    /// What was done to make Apple's transaction carry the binding's token: `set`, `failed`,
    /// or `nil` when nothing needed doing.
    package var appAccountTokenAtApple: String?
}
