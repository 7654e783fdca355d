/// Who asks for a transaction to be delivered, which decides who may receive it.
enum DeliveryClaimant: Hashable, Sendable {
    /// An authenticated player reporting from a device, naming the order they paid for
    /// (receipts carry no app account token, so the client names the order).
    case player(String, orderId: String?)
    /// The App Store itself (a notification, or the reconciler reading notification
    /// history): the goods go only to the player the transaction is bound to.
    case appStore
    /// Support staff who looked an order up with Apple; an unbound transaction goes to the
    /// player they name.
    case support(playerId: String?)

    /// The player making the claim, if it is a player.
    var reportingPlayer: String? {
        if case .player(let playerId, _) = self { playerId } else { nil }
    }
}
