/// The oracle's counts: what Apple charged, what the ledger delivered, and how many
/// charges break each invariant.
public struct IntegrityCounts: Codable, Hashable, Sendable {
    /// Charges Apple made.
    public var charged: Int
    /// Charges the ledger delivered (to anyone).
    public var delivered: Int
    /// Charges that stand but whose goods the ledger does not hold.
    public var lost: Int
    /// Charges whose goods the ledger holds more of than paid for.
    public var duplicates: Int
    /// Charges delivered to a player who did not pay.
    public var wrongPlayer: Int
    /// Ledger deliveries with no charge behind them.
    public var forgedDelivered: Int
    /// Charges refunded at the end of the run.
    public var refunded: Int
    /// Google Play purchases Google refunded for want of acknowledgement (its three-day rule).
    public var refundedUnacknowledged: Int = 0
    /// Purchases still in flight when the run was judged, counted in none of the above
    /// violations (see ``IntegrityVerdict/separatingInFlight(waits:uncharged:)``).
    public var inFlight: Int = 0

    /// Whether nothing was lost, duplicated, misdelivered, forged or refunded by Google for
    /// want of acknowledgement.
    public var holds: Bool {
        lost == 0 && duplicates == 0 && wrongPlayer == 0 && forgedDelivered == 0 && refundedUnacknowledged == 0
    }
}
