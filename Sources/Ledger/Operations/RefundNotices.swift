import AppStoreModel

/// The refund-state notifications (REFUND, REVOKE, REFUND_REVERSED) recorded for one
/// transaction, in Apple's order: by the date Apple signed them, not by arrival, because
/// Apple's notifications can arrive out of order (a reversal before the refund it undoes).
struct RefundNotices: Sendable {
    private struct Notice {
        var revokes: Bool
        var signedDate: Int64
    }

    private let notices: [Notice]

    /// The notices among a transaction's ``HistoryEventType/notificationReceived`` events
    /// (in arrival order); a notice recorded without a signed date sorts first. Of notices
    /// signed in the same millisecond, a REFUND or REVOKE comes before a REFUND_REVERSED
    /// (a reversal only ever follows the refund it undoes, and may overtake it on the way),
    /// then arrival order decides.
    init(events: [HistoryEvent]) {
        var notices: [Notice] = []
        for event in events where event.type == .notificationReceived {
            let revokes: Bool
            switch event.detail["notificationType"] {
            case NotificationType.refund.rawValue, NotificationType.revoke.rawValue: revokes = true
            case NotificationType.refundReversed.rawValue: revokes = false
            default: continue
            }
            notices.append(Notice(revokes: revokes, signedDate: event.detail["signedDate"].flatMap { Int64($0) } ?? 0))
        }
        self.notices = notices.enumerated().sorted {
            ($0.element.signedDate, $0.element.revokes ? 0 : 1, $0.offset)
                < ($1.element.signedDate, $1.element.revokes ? 0 : 1, $1.offset)
        }
        .map(\.element)
    }

    /// Whether no refund-state notice is recorded.
    var isEmpty: Bool { notices.isEmpty }

    /// Whether Apple's latest word on the transaction is a refund or a revocation.
    var isRevoked: Bool { notices.last?.revokes ?? false }
}
