/// The outcome of ``LedgerStore/settleRefundState(store:transactionId:reason:)``.
public enum RefundSettlement: Sendable, Hashable {
    /// Apple's latest word refunds more of the purchase than the ledger had taken back
    /// (a refund, whole or partial, or a larger cumulative one): this call took back the
    /// difference (the purchase as it stands now, and the negative entries). Check
    /// ``LedgerPosting/negativeBalances``: a refund may leave a balance below zero.
    case reversed(Purchase, LedgerPosting)
    /// Apple's latest word refunds less of it (a refund reversal): this call gave back the
    /// difference.
    case regranted(Purchase, LedgerPosting)
    /// The purchase already agrees with Apple's latest word (or no word is recorded).
    case unchanged(Purchase)
    /// No purchase with that transaction id was ever delivered; nothing changed.
    case unknownTransaction
}
