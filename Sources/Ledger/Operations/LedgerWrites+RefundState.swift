import Foundation

extension LedgerWrites {
    /// Locks the transaction id's refund state (PostgreSQL) and reads Apple's latest
    /// refund-state word on it, inside the caller's database transaction.
    ///
    /// Every decision on a transaction's refund state (deliver it or refuse; reverse or
    /// re-grant it) starts here and writes in the same database transaction, and every
    /// refund-state notice is recorded before it is settled: whichever of a delivery and a
    /// settlement takes the lock second reads what the first committed.
    static func readRefundState(transactionId: String, dialect: LedgerSQL.Dialect) -> LedgerOperation<RefundNotices> {
        let lock: LedgerOperation<Void> =
            switch dialect {
            case .postgres: .execute(LedgerSQL.lockRefundState(transactionId: transactionId))
            case .sqlite: .done(())
            }
        return lock.then { _ in
            LedgerOperation<[HistoryEvent]>.rows(
                LedgerSQL.notificationEvents(transactionId: transactionId), HistoryEvent.init(row:))
        }
        .map(RefundNotices.init(events:))
    }

    /// Brings the purchase to Apple's latest recorded refund-state word, in one database
    /// transaction (see ``LedgerStore/settleRefundState(transactionId:reason:)``).
    static func settleRefundState(
        transactionId: String,
        reason: String,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<RefundSettlement> {
        readRefundState(transactionId: transactionId, dialect: dialect).then { notices in
            LedgerOperation.first(LedgerSQL.purchase(transactionId: transactionId), Purchase.init(row:))
                .then { purchase in
                    .checkpoint(.refundStateRead(transactionId: transactionId), returning: purchase)
                }
                .then { purchase -> LedgerOperation<RefundSettlement> in
                    guard let purchase else { return .done(.unknownTransaction) }
                    guard !notices.isEmpty else { return .done(.unchanged(purchase)) }
                    switch (purchase.status, notices.isRevoked) {
                    case (.delivered, true):
                        let refund = PurchaseStatusTransition.refund(
                            transactionId: transactionId, reason: reason, at: now)
                        return apply(refund, to: transactionId, at: now).map(RefundSettlement.init)
                    case (.refunded, false):
                        let regrant = PurchaseStatusTransition.regrant(transactionId: transactionId)
                        return apply(regrant, to: transactionId, at: now).map(RefundSettlement.init)
                    case (.delivered, false), (.refunded, true):
                        return .done(.unchanged(purchase))
                    }
                }
        }
    }
}

extension RefundSettlement {
    /// A status transition's outcome as a settlement (the lock makes a transition chosen
    /// under it change the purchase; an unchanged row is reported as such all the same).
    init(_ outcome: PurchaseStatusTransition.Outcome) {
        switch outcome {
        case .changed(let purchase, let posting):
            self = purchase.status == .refunded ? .reversed(purchase, posting) : .regranted(purchase, posting)
        case .unchanged(let purchase): self = .unchanged(purchase)
        case .unknownTransaction: self = .unknownTransaction
        }
    }
}
