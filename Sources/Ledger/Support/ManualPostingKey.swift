import Foundation

/// What makes ledger entries one posting on the player page: entries of one time, actor and
/// reason (an absent actor or reason as the empty text) are one posting, whatever items
/// they move (one entry per item; two postings of one key that move the same item are
/// one posting that moves its sum). The player page counts the postings
/// (``PlayerTotals/manualGrantCount``) and lists the newest
/// (``SupportReads/newestManualEntries(playerId:limit:)``) by this key, which the ledger's
/// statements spell as `LedgerSQL.manualPostingKey`; this is the same key of an entry read.
public struct ManualPostingKey: Sendable, Hashable {
    /// When the posting was written.
    public var createdAt: Date
    /// Who made it (empty when the entry names no one).
    public var actor: String
    /// Why (empty when the entry gives no reason).
    public var reason: String

    /// The key of the posting `entry` is part of.
    public init(_ entry: LedgerEntry) {
        createdAt = entry.createdAt
        actor = entry.actor ?? ""
        reason = entry.reason ?? ""
    }
}

extension LedgerSQL {
    /// ``ManualPostingKey`` as the columns of `ledger_entries` it is made of, in the order
    /// the player page's statements sort and compare it by.
    static let manualPostingKey = "created_at, COALESCE(actor, ''), COALESCE(reason, '')"
}
