import AppStoreModel
import Ledger

/// The refund-state notifications (REFUND, REVOKE, REFUND_REVERSED) recorded for one
/// transaction, in Apple's order: by the date Apple signed them, not by arrival, because
/// Apple's notifications can arrive out of order (a reversal before the refund it undoes).
struct RefundNotices {
    private struct Notice {
        var notificationUUID: String
        var revokes: Bool
        var signedDate: Int64
    }

    private let notices: [Notice]

    /// The notices among a transaction's history events (oldest first); a notice recorded
    /// without a signed date sorts first, and ties keep their arrival order.
    init(events: [HistoryEvent]) {
        var notices: [Notice] = []
        for event in events where event.type == .notificationReceived {
            let revokes: Bool
            switch event.detail["notificationType"] {
            case NotificationType.refund.rawValue, NotificationType.revoke.rawValue: revokes = true
            case NotificationType.refundReversed.rawValue: revokes = false
            default: continue
            }
            notices.append(
                Notice(
                    notificationUUID: event.detail["notificationUUID"] ?? "", revokes: revokes,
                    signedDate: event.detail["signedDate"].flatMap { Int64($0) } ?? 0))
        }
        self.notices = notices.enumerated().sorted {
            ($0.element.signedDate, $0.offset) < ($1.element.signedDate, $1.offset)
        }
        .map(\.element)
    }

    /// Whether no refund-state notice is recorded.
    var isEmpty: Bool { notices.isEmpty }

    /// Whether Apple's latest word on the transaction is a refund or a revocation.
    var isRevoked: Bool { notices.last?.revokes ?? false }

    /// Whether a notice other than `notificationUUID` was signed after `signedDate`: the
    /// notification signed at `signedDate` is stale and must not change the refund state.
    func supersede(_ notificationUUID: String, signedAt signedDate: Int64) -> Bool {
        notices.contains { $0.notificationUUID != notificationUUID && $0.signedDate > signedDate }
    }
}

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
