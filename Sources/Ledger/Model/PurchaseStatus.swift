/// Whether a delivered purchase still stands.
public enum PurchaseStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Goods granted and not reversed.
    case delivered
    /// Apple refunded it; the grant was reversed in the ledger.
    case refunded
}
