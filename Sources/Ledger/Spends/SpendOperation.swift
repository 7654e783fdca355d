import Foundation

/// A spend, written once for both databases (``LedgerOperation``).
enum SpendOperation {
    /// Claims the key, or answers the spend recorded under it; passes
    /// ``LedgerPausePoint/spendClaimed(playerId:idempotencyKey:)``; then debits each item in
    /// item order (balance rows locked in one order on PostgreSQL), appends the entries, the
    /// event and the webhook message, and records the balances.
    static func spend(_ request: SpendRequest, at now: Date) -> LedgerOperation<SpendResult> {
        let items = LedgerJSON.text(request.items)
        return LedgerOperation<String?>.first(SpendSQL.claim(request, items: items, at: now)) {
            try $0.requiredText("player_id")
        }
        .then { claimed -> LedgerOperation<SpendResult?> in
            if claimed != nil { return .done(nil) }
            return LedgerOperation<Spend?>.first(
                SpendSQL.spend(playerId: request.playerId, idempotencyKey: request.idempotencyKey), Spend.init(row:)
            )
            .map { recorded in
                guard let recorded else { throw LedgerError.corruptRow("a claimed spend key has no spend") }
                guard SpendRules.isRetry(of: recorded, request) else {
                    throw LedgerError.idempotencyKeyReused(key: request.idempotencyKey)
                }
                return SpendResult(spend: recorded, replayed: true)
            }
        }
        .then { replayed -> LedgerOperation<SpendResult> in
            if let replayed { return .done(replayed) }
            return .pause(.spendClaimed(playerId: request.playerId, idempotencyKey: request.idempotencyKey)) {
                debit(request, at: now)
            }
        }
    }

    /// Debits, entries, event, message and balances of a claimed spend.
    private static func debit(_ request: SpendRequest, at now: Date) -> LedgerOperation<SpendResult> {
        LedgerOperation<[String: Int64]>.reduce(LedgerRules.ordered(request.items), into: [:]) { balances, item in
            LedgerOperation<Int64?>.first(
                SpendSQL.debit(playerId: request.playerId, item: item.item, amount: item.amount, at: now)
            ) { try $0.requiredInteger("amount") }
            .then { after in
                guard let after else { return refusal(request, item: item.item, amount: item.amount) }
                return LedgerOperation<LedgerEntry?>.first(
                    LedgerSQL.insertEntry(
                        playerId: request.playerId, item: item.item, amount: -item.amount, kind: .spend,
                        transactionId: nil, reason: request.reason, actor: request.actor, balanceAfter: after, at: now),
                    LedgerEntry.init(row:)
                )
                .map { _ in balances.merging([item.item: after]) { $1 } }
            }
        }
        .then { balances in
            let spend = Spend(
                playerId: request.playerId, idempotencyKey: request.idempotencyKey, items: request.items,
                reason: request.reason, actor: request.actor, balances: balances, createdAt: now.ledgerNormalized)
            return LedgerOperation<Void>.execute(
                SpendSQL.recordBalances(
                    playerId: request.playerId, idempotencyKey: request.idempotencyKey,
                    balances: LedgerJSON.text(balances))
            )
            .then { _ in .execute(try LedgerSQL.insertEvent(SpendRules.event(spend))) }
            .then { _ in
                .execute(
                    LedgerSQL.insertOutbox(
                        idempotencyKey: SpendMessage.idempotencyKey(
                            playerId: spend.playerId, spendKey: spend.idempotencyKey),
                        playerId: spend.playerId, transactionId: nil,
                        payload: try LedgerJSON.text(SpendMessage(spend)), at: now))
            }
            .map { SpendResult(spend: spend, replayed: false) }
        }
    }

    /// Reads the balance an item lacked, and refuses the spend with it (the transaction,
    /// and so the claim and every debit before, is rolled back).
    private static func refusal(_ request: SpendRequest, item: String, amount: Int64) -> LedgerOperation<
        [String: Int64]
    > {
        LedgerOperation<Int64?>.first(SpendSQL.balance(playerId: request.playerId, item: item)) {
            try $0.requiredInteger("amount")
        }
        .map { balance in
            throw LedgerError.insufficientBalance(item: item, balance: balance ?? 0, requested: amount)
        }
    }
}
