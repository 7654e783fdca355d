import AppStoreModel

/// The refund-state notifications (REFUND, REVOKE, REFUND_REVERSED) recorded for one
/// transaction, in Apple's order: by the date Apple signed them, not by arrival, because
/// Apple's notifications can arrive out of order (a reversal before the refund it undoes).
///
/// Each notice sets the transaction's refunded share, Apple's cumulative word on it: a
/// REFUND or REVOKE the share its signed transaction carries (`revocationPercentage` of a
/// prorated refund, else all of it), a REFUND_REVERSED none.
struct RefundNotices: Sendable {
    private struct Notice {
        var type: String
        var share: Int
        var signedDate: Int64

        /// A REFUND_REVERSED sorts after refunds signed in the same millisecond.
        var isReversal: Bool { type == NotificationType.refundReversed.rawValue }
    }

    private let notices: [Notice]

    /// The notices among a transaction's ``HistoryEventType/notificationReceived`` events
    /// (in arrival order); a notice recorded without a signed date sorts first, a REFUND or
    /// REVOKE recorded without a share (before partial refunds, or without a revocation in
    /// its transaction) refunds all of it. Of notices signed in the same millisecond, a
    /// REFUND or REVOKE comes before a REFUND_REVERSED (a reversal only ever follows the
    /// refund it undoes, and may overtake it on the way), a smaller share before a larger
    /// one (Apple's share is cumulative: it only grows until a reversal), then arrival order
    /// decides.
    init(events: [HistoryEvent]) {
        var notices: [Notice] = []
        for event in events where event.type == .notificationReceived {
            guard let type = event.detail["notificationType"] else { continue }
            let share: Int
            switch type {
            case NotificationType.refund.rawValue, NotificationType.revoke.rawValue:
                share =
                    event.detail["revokedShare"].flatMap { Int($0) }.map { min(max($0, 0), RefundShare.whole) }
                    ?? RefundShare.whole
            case NotificationType.refundReversed.rawValue: share = 0
            default: continue
            }
            let signedDate = event.detail["signedDate"].flatMap { Int64($0) } ?? 0
            notices.append(Notice(type: type, share: share, signedDate: signedDate))
        }
        self.notices = notices.enumerated().sorted {
            ($0.element.signedDate, $0.element.isReversal ? 1 : 0, $0.element.share, $0.offset)
                < ($1.element.signedDate, $1.element.isReversal ? 1 : 0, $1.element.share, $1.offset)
        }
        .map(\.element)
    }

    /// Whether no refund-state notice is recorded.
    var isEmpty: Bool { notices.isEmpty }

    /// The refunded share (milliunits) Apple's latest word sets: 0 when none is recorded or
    /// the latest is a reversal, ``RefundShare/whole`` when it refunds or revokes all.
    var share: Int { notices.last?.share ?? 0 }

    /// The type of Apple's latest word (`REFUND`, `REVOKE` or `REFUND_REVERSED`), if any.
    var latestType: String? { notices.last?.type }
}
