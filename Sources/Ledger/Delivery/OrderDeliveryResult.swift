/// The answer of ``LedgerStore/deliverByOrder(_:appAccountToken:)``.
public enum OrderDeliveryResult: Sendable, Hashable {
    /// This call delivered the transaction: the purchase as recorded, and the player's
    /// balances after it (item → amount).
    case delivered(Purchase, balances: [String: Int64])
    /// Not the plain case this call handles (the transaction was delivered or notified
    /// before, or the order is not the player's unfulfilled order for the product with the
    /// token): nothing was written; bind and deliver through ``LedgerStore/deliver(_:)``.
    case needsBinding
}
