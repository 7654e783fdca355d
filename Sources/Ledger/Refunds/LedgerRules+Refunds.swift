import Foundation

extension LedgerRules {
    /// The event recording a change of a purchase's refunded share: ``HistoryEventType/refunded``
    /// when it grew, ``HistoryEventType/refundReversed`` when it shrank.
    static func refundMovementEvent(
        _ purchase: Purchase,
        previousShare: Int,
        posting: LedgerPosting,
        at: Date
    ) throws -> HistoryEvent {
        let grows = purchase.refundedShare > previousShare
        var detail = [
            "grants": LedgerJSON.text(signedGrants(posting)),
            "refundedShare": String(purchase.refundedShare),
            "previousRefundedShare": String(previousShare),
        ]
        if grows { detail["reason"] = purchase.refundReason }
        if posting.hasNegativeBalance {
            detail["negativeBalances"] = LedgerJSON.text(posting.negativeBalances)
        }
        return HistoryEvent(
            type: grows ? .refunded : .refundReversed,
            playerId: purchase.playerId,
            orderId: purchase.orderId,
            transactionId: purchase.transactionId,
            store: purchase.store,
            detail: detail,
            createdAt: at
        )
    }
}
