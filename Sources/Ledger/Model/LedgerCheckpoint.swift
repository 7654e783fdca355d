/// A point inside a ledger transaction where the store calls its ``LedgerHook``: the
/// transaction has read what it decides on and not yet written its decision. Tests pause
/// there to force an interleaving (another instance's write arriving at exactly that
/// moment) instead of hoping a sleep produces it.
public enum LedgerCheckpoint: Sendable, Hashable {
    /// A delivery or a refund settlement holds the transaction's refund-state lock and has
    /// read Apple's latest refund-state word (and, for a settlement, the purchase).
    case refundStateRead(transactionId: String)
}

/// Called by a store at each ``LedgerCheckpoint`` of its transactions, inside the
/// transaction; the transaction continues when it returns. Production stores have none.
public typealias LedgerHook = @Sendable (LedgerCheckpoint) async -> Void
