import Ledger

extension LedgerStore {
    /// Brings a purchase to Apple's latest recorded refund-state word (refunded after a
    /// REFUND or REVOKE, delivered after a REFUND_REVERSED), read now, and returns its status
    /// (`nil` when it was never delivered).
    ///
    /// Every refund-state notice is recorded before it acts, and each actor settles after
    /// acting: a REFUND racing its REFUND_REVERSED, or a refund racing the delivery it should
    /// stop, each may act on a word the other has not recorded yet, and the one that
    /// settles last has seen both.
    func settleRefundState(transactionId: String) async throws -> PurchaseStatus? {
        guard let purchase = try await purchase(transactionId: transactionId) else { return nil }
        let notices = RefundNotices(events: try await events(transactionId: transactionId))
        guard !notices.isEmpty else { return purchase.status }
        switch (purchase.status, notices.isRevoked) {
        case (.delivered, true):
            _ = try await reverse(transactionId: transactionId, reason: "Apple's latest refund-state notification")
            return .refunded
        case (.refunded, false):
            _ = try await regrant(transactionId: transactionId)
            return .delivered
        case (.delivered, false), (.refunded, true):
            return purchase.status
        }
    }
}
