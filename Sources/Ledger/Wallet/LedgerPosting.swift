/// The ledger entries one operation wrote, and the balances they left.
public struct LedgerPosting: Sendable, Hashable, Codable {
    /// The entries written, one per item, in item order.
    public var entries: [LedgerEntry]
    /// The balance of every item touched, after the operation.
    public var balances: [String: Int64]

    /// Creates a posting value.
    public init(entries: [LedgerEntry], balances: [String: Int64]) {
        self.entries = entries
        self.balances = balances
    }

    /// The touched items whose balance is now below zero (a refund of goods already spent).
    /// Allowed, and reported rather than hidden.
    public var negativeBalances: [String: Int64] {
        balances.filter { $0.value < 0 }
    }

    /// Whether any touched balance is below zero.
    public var hasNegativeBalance: Bool {
        balances.values.contains { $0 < 0 }
    }
}
