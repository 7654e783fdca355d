import Foundation

extension LedgerRules {
    /// The largest amount of one item a manual grant may add or take away, so that no
    /// balance can overflow 64 bits in any realistic number of grants.
    static let maximumManualAmount: Int64 = 1_000_000_000_000

    /// The most items one manual grant may name.
    static let maximumManualItems = 100

    /// The longest item name, in characters (Unicode scalars).
    static let maximumItemLength = ItemName.maximumLength

    /// Grants a manual grant may carry: 1 to ``maximumManualItems`` items named by identifiers
    /// (``IdentifierRule``, at most ``maximumItemLength`` characters each), non-zero amounts of
    /// at most ``maximumManualAmount`` either way.
    static func validateManualGrants(_ grants: Grants) throws {
        guard !grants.isEmpty else { throw LedgerError.invalidGrants("nothing to grant") }
        guard grants.count <= maximumManualItems else {
            throw LedgerError.invalidGrants("at most \(maximumManualItems) items per grant")
        }
        for (item, amount) in grants {
            if let problem = IdentifierRule.problem(with: item, maximumLength: maximumItemLength) {
                throw LedgerError.invalidGrants("an item name is not an identifier: \(problem)")
            }
            guard amount != 0 else { throw LedgerError.invalidGrants("\(item): zero amount") }
            guard (-maximumManualAmount...maximumManualAmount).contains(amount) else {
                throw LedgerError.invalidGrants("\(item): an amount is at most \(maximumManualAmount) either way")
            }
        }
    }

    /// Grants in a fixed item order, by the names' UTF-8 bytes (the order of PostgreSQL's
    /// `COLLATE "C"`, which `storekeeper_deliver_by_order` posts in): balances are always
    /// locked in the same order, so concurrent PostgreSQL transactions touching one player
    /// cannot deadlock.
    static func ordered(_ grants: Grants) -> [(item: String, amount: Int64)] {
        grants.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { (item: $0.key, amount: $0.value) }
    }

    /// The audit event of a manual grant.
    static func manualGrantEvent(
        playerId: String,
        posting: LedgerPosting,
        reason: String,
        actor: String,
        via: String?,
        at: Date
    ) throws -> HistoryEvent {
        var detail = ["grants": LedgerJSON.text(signedGrants(posting)), "reason": reason, "actor": actor]
        if let via { detail["via"] = via }
        if posting.hasNegativeBalance {
            detail["negativeBalances"] = LedgerJSON.text(posting.negativeBalances)
        }
        return HistoryEvent(type: .manualGrant, playerId: playerId, detail: detail, createdAt: at)
    }

    /// The amounts a posting applied, item → signed amount.
    static func signedGrants(_ posting: LedgerPosting) -> Grants {
        Dictionary(posting.entries.map { ($0.item, $0.amount) }, uniquingKeysWith: +)
    }
}
