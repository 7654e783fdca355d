/// Why a ledger entry was written.
public enum LedgerEntryKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A delivered purchase (positive).
    case grant
    /// A refunded purchase reversed (negative).
    case refund
    /// A refund Apple reversed; the goods granted again (positive).
    case refundReversed = "refund_reversed"
    /// Compensation or correction by support staff (either sign).
    case manual
    /// Spent in the game (negative): ``SpendStore/spend(_:)``.
    case spend
}
