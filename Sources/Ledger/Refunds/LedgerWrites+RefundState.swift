import Foundation

extension LedgerWrites {
    /// Locks the transaction id's refund state until the end of the caller's database
    /// transaction (PostgreSQL's advisory lock; SQLite's write transaction holds its single
    /// writer already).
    ///
    /// Every decision on a transaction's refund state (deliver it or refuse; move its
    /// refunded share) starts here and writes in the same database transaction, and every
    /// refund-state notice is recorded before it is settled: whichever of a delivery and a
    /// settlement takes the lock second reads what the first committed.
    static func lockTransaction(store: Store, transactionId: String, dialect: LedgerSQL.Dialect)
        -> LedgerOperation<Void>
    {
        switch dialect {
        case .postgres: .execute(LedgerSQL.lockTransaction(store: store, transactionId: transactionId))
        case .sqlite: .done(())
        }
    }

    /// Locks the transaction id's refund state and reads Apple's latest refund-state word
    /// on it, inside the caller's database transaction.
    static func readRefundNotices(store: Store, transactionId: String, dialect: LedgerSQL.Dialect)
        -> LedgerOperation<RefundNotices>
    {
        lockTransaction(store: store, transactionId: transactionId, dialect: dialect).then { _ in
            LedgerOperation<[RefundNotices.Notice]>.rows(
                LedgerSQL.refundNotices(store: store, transactionId: transactionId), RefundNotices.Notice.init(row:))
        }
        .map(RefundNotices.init(notices:))
    }

    /// Brings the purchase's refunded share to Apple's latest recorded word, in one
    /// database transaction (see ``LedgerStore/settleRefundState(store:transactionId:reason:)``).
    static func settleRefundState(
        store: Store,
        transactionId: String,
        reason: String,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) -> LedgerOperation<RefundSettlement> {
        readRefundNotices(store: store, transactionId: transactionId, dialect: dialect).then { notices in
            LedgerOperation.first(LedgerSQL.purchase(store: store, transactionId: transactionId), Purchase.init(row:))
                .then { purchase in
                    .pause(at: .refundNoticesRead(transactionId: transactionId), returning: purchase)
                }
                .then { purchase -> LedgerOperation<RefundSettlement> in
                    guard let purchase else { return .done(.unknownTransaction) }
                    guard !notices.isEmpty else { return .done(.unchanged(purchase)) }
                    return move(purchase, toRefundedShare: notices.share, reason: reason, at: now)
                        .map(RefundSettlement.init)
                }
        }
    }
}
