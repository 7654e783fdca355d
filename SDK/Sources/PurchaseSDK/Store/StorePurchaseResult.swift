/// What the store answered a purchase with.
public enum StorePurchaseResult: Hashable, Sendable {
    /// Apple charged: the transaction to deliver.
    case purchased(StoreTransaction)
    /// Waiting for Ask to Buy or the bank; the transaction arrives later as an update.
    case pending
    /// The customer closed the payment sheet; nothing was charged.
    case userCancelled
}
