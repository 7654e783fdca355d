import Foundation

/// One append-only line of a player's ledger: a change of one item's balance.
public struct LedgerEntry: Sendable, Hashable, Codable {
    /// The entry's id; increases with every entry written.
    public var id: Int64
    /// Whose balance changed.
    public var playerId: String
    /// The item whose balance changed.
    public var item: String
    /// The change (negative for refunds).
    public var amount: Int64
    /// Why it changed.
    public var kind: LedgerEntryKind
    /// The transaction behind it (grants, refunds, re-grants).
    public var transactionId: String?
    /// A human-readable reason (refunds, manual grants).
    public var reason: String?
    /// Who made a manual grant.
    public var actor: String?
    /// The item's balance right after this entry.
    public var balanceAfter: Int64
    /// When the entry was written.
    public var createdAt: Date

    /// Creates a ledger entry value.
    public init(
        id: Int64,
        playerId: String,
        item: String,
        amount: Int64,
        kind: LedgerEntryKind,
        transactionId: String?,
        reason: String?,
        actor: String?,
        balanceAfter: Int64,
        createdAt: Date
    ) {
        self.id = id
        self.playerId = playerId
        self.item = item
        self.amount = amount
        self.kind = kind
        self.transactionId = transactionId
        self.reason = reason
        self.actor = actor
        self.balanceAfter = balanceAfter
        self.createdAt = createdAt
    }
}
