/// The outcome of ``LedgerStore/settleRefundState(transactionId:reason:)``.
public enum RefundSettlement: Sendable, Hashable {
    /// Apple's latest word is a refund or revocation: this call reversed the grant. Check
    /// ``LedgerPosting/negativeBalances``: a refund may leave a balance below zero.
    case reversed(Purchase, LedgerPosting)
    /// Apple's latest word is a refund reversal: this call granted the purchase again.
    case regranted(Purchase, LedgerPosting)
    /// The purchase already agrees with Apple's latest word (or no word is recorded).
    case unchanged(Purchase)
    /// No purchase with that transaction id was ever delivered; nothing changed.
    case unknownTransaction
}
