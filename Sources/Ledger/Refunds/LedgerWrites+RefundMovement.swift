import Foundation

extension LedgerWrites {
    /// Takes the transaction id's transaction lock, reads the purchase and moves its
    /// refunded share to `share` (``LedgerStore/reverse(store:transactionId:reason:)``: all of
    /// it; ``LedgerStore/regrant(store:transactionId:)``: none).
    static func moveRefundedShare(
        store: Store,
        transactionId: String,
        to share: Int,
        reason: String?,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<RefundMovement> {
        lockTransaction(store: store, transactionId: transactionId, dialect: dialect)
            .then { _ in
                LedgerOperation.first(
                    LedgerSQL.purchase(store: store, transactionId: transactionId), Purchase.init(row:))
            }
            .then { purchase in
                guard let purchase else { return .done(.unknownTransaction) }
                return move(purchase, toRefundedShare: share, reason: reason, at: now)
            }
    }

    /// Moves `purchase`, read under its transaction lock, from its refunded share to
    /// `share`, once: what ``RefundShare`` takes back at the new share minus what it took
    /// at the old one, per item, posted as ``LedgerEntryKind/refund`` entries (the share
    /// grew) or ``LedgerEntryKind/refundReversed`` entries (it shrank); then one
    /// ``HistoryEventType/refunded`` or ``HistoryEventType/refundReversed`` event and one
    /// ``RefundMessage`` in the outbox, even when no item moved (the share did). At the
    /// share already, nothing changes: a settlement asked again is idempotent.
    static func move(
        _ purchase: Purchase,
        toRefundedShare share: Int,
        reason: String?,
        at now: Date
    ) -> LedgerOperation<RefundMovement> {
        let previous = purchase.refundedShare
        guard share != previous else { return .done(.unchanged(purchase)) }
        let grows = share > previous
        var target = purchase
        target.refundedShare = share
        target.status = share == RefundShare.whole ? .refunded : .delivered
        if grows {
            target.refundedAt = now
            target.refundReason = reason
        } else if share == 0 {
            target.refundedAt = nil
            target.refundReason = nil
        }
        let amounts = RefundShare.movement(of: purchase.grants, from: previous, to: share)
        let transactionId = purchase.transactionId
        return LedgerOperation.first(LedgerSQL.setRefundedShare(target, from: previous), Purchase.init(row:))
            .then { moved in
                // Every writer of the share holds the lock: the row is as it was read.
                guard let moved else {
                    throw LedgerError.corruptRow("purchase \(transactionId) changed under its transaction lock")
                }
                return post(
                    playerId: moved.playerId,
                    grants: amounts,
                    kind: grows ? .refund : .refundReversed,
                    transactionId: transactionId,
                    reason: grows ? reason : nil,
                    actor: nil,
                    at: now
                )
                .then { posting in
                    LedgerOperation.first(LedgerSQL.refundMovements(store: moved.store, transactionId: transactionId)) {
                        try $0.requiredInteger("movements")
                    }
                    .then { movements in
                        let message = RefundMessage(
                            purchase: moved, previousRefundedShare: previous, grants: amounts,
                            sequence: Int(movements ?? 0) + 1)
                        return LedgerOperation.execute(
                            try LedgerSQL.insertEvent(
                                LedgerRules.refundMovementEvent(
                                    moved, previousShare: previous, posting: posting, at: now))
                        )
                        .then { _ in
                            .execute(
                                LedgerSQL.insertOutbox(
                                    idempotencyKey: RefundMessage.idempotencyKey(
                                        store: moved.store, transactionId: transactionId, sequence: message.sequence),
                                    playerId: moved.playerId,
                                    transactionId: transactionId,
                                    payload: String(decoding: try message.encoded(), as: UTF8.self),
                                    at: now
                                )
                            )
                        }
                    }
                    .map { .moved(moved, posting, previousShare: previous) }
                }
            }
    }
}
