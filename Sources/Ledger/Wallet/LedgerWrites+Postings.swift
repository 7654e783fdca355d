import Foundation

extension LedgerWrites {
    /// Applies `grants` (signed amounts) to the player's balances and appends one ledger
    /// entry per item, in item order (so PostgreSQL always locks balance rows in one order).
    static func post(
        playerId: String,
        grants: Grants,
        kind: LedgerEntryKind,
        transactionId: String?,
        reason: String?,
        actor: String?,
        at now: Date
    ) -> LedgerOperation<LedgerPosting> {
        .reduce(LedgerRules.ordered(grants), into: LedgerPosting(entries: [], balances: [:])) { posting, grant in
            let missing = LedgerError.corruptRow("balance update of \(grant.item) returned nothing")
            return LedgerOperation.first(
                LedgerSQL.addToBalance(playerId: playerId, item: grant.item, amount: grant.amount, at: now)
            ) { try $0.requiredInteger("amount") }
            .then { balance in
                guard let balance else { throw missing }
                return .first(
                    LedgerSQL.insertEntry(
                        playerId: playerId,
                        item: grant.item,
                        amount: grant.amount,
                        kind: kind,
                        transactionId: transactionId,
                        reason: reason,
                        actor: actor,
                        balanceAfter: balance,
                        at: now
                    ),
                    LedgerEntry.init(row:)
                )
            }
            .map { entry in
                guard let entry else { throw missing }
                var posting = posting
                posting.entries.append(entry)
                posting.balances[grant.item] = entry.balanceAfter
                return posting
            }
        }
    }

    /// Posts support's ``LedgerEntryKind/manual`` entries and appends the audited
    /// ``HistoryEventType/manualGrant`` event.
    static func grantManually(
        playerId: String,
        grants: Grants,
        reason: String,
        actor: String,
        via: String?,
        at now: Date
    ) -> LedgerOperation<LedgerPosting> {
        post(
            playerId: playerId,
            grants: grants,
            kind: .manual,
            transactionId: nil,
            reason: reason,
            actor: actor,
            at: now
        )
        .then { posting in
            LedgerOperation.execute(
                try LedgerSQL.insertEvent(
                    LedgerRules.manualGrantEvent(
                        playerId: playerId, posting: posting, reason: reason, actor: actor, via: via, at: now)
                )
            )
            .map { posting }
        }
    }
}
