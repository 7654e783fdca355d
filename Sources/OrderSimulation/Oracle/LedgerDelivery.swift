import Ledger

/// What the server's ledger holds for one transaction: who received it, its status, and
/// the net of every ledger entry written for it (grants, refunds, re-grants).
public struct LedgerDelivery: Codable, Hashable, Sendable {
    /// Apple's transaction id.
    public var transactionId: String
    /// The player who received the goods.
    public var playerId: String
    /// Delivered, or refunded.
    public var status: PurchaseStatus
    /// Item → the sum of the transaction's ledger entries.
    public var net: Grants

    /// Creates a ledger delivery.
    public init(transactionId: String, playerId: String, status: PurchaseStatus, net: Grants) {
        self.transactionId = transactionId
        self.playerId = playerId
        self.status = status
        self.net = net
    }
}
