/// A point inside a ledger transaction where the store calls its ``LedgerHook``: the
/// transaction has read what it decides on and not yet written its decision. Tests pause
/// there to force an interleaving (another instance's write arriving at exactly that
/// moment) instead of hoping a sleep produces it.
public enum LedgerPausePoint: Sendable, Hashable {
    /// A delivery or a refund settlement holds the transaction's transaction lock and has
    /// read Apple's latest refund-state word (and, for a settlement, the purchase).
    case refundNoticesRead(transactionId: String)
    /// A change of an entitlement (a delivery's, an update or a transfer) has read the
    /// entitlement's row under its lock (PostgreSQL: `FOR UPDATE`), or found none.
    case entitlementRead(originalTransactionId: String)
    /// A first delivery of a stacked period (non-renewing) holds the player's stack lock
    /// for the entitlement id and has read where its period starts.
    case entitlementStackRead(playerId: String, entitlementId: String)
    /// A spend claimed its idempotency key (or found it free) and has not debited yet.
    case spendClaimed(playerId: String, idempotencyKey: String)
}

/// Called by a store at each ``LedgerPausePoint`` of its transactions, inside the
/// transaction; the transaction continues when it returns. Production stores have none.
public typealias LedgerHook = @Sendable (LedgerPausePoint) async -> Void
