/// The outcome of ``LedgerStore/reverse(store:transactionId:reason:)``.
public enum ReversalResult: Sendable, Hashable {
    /// This call reversed what was left of the grant: the purchase (now refunded) and the
    /// negative entries. Check ``LedgerPosting/negativeBalances``: a refund may leave a
    /// balance below zero.
    case reversed(Purchase, LedgerPosting)
    /// The purchase was already refunded; nothing changed.
    case alreadyReversed(Purchase)
    /// No purchase with that transaction id was ever delivered; nothing changed.
    case unknownTransaction
}
