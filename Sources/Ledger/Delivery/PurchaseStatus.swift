/// Whether a delivered purchase still stands.
public enum PurchaseStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Goods granted and not wholly refunded: Apple may have refunded part of the purchase
    /// (``Purchase/refundedShare`` above 0), whose share the ledger has taken back.
    case delivered
    /// Apple refunded all of it; the whole grant was reversed in the ledger.
    case refunded
}
