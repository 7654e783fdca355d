import Foundation

/// The refund notices recorded for one transaction (``RefundNotice``, in `refund_notices`),
/// in the store's order: by the date the store signed them, not by arrival, because a
/// store's notifications can arrive out of order (a reversal before the refund it undoes).
///
/// Each notice sets the transaction's refunded share, the store's cumulative word on it: a
/// refund or revocation the share it carries, a reversal none.
struct RefundNotices: Sendable {
    /// One recorded notice.
    struct Notice: Sendable {
        var kind: RefundNotice.Kind
        var share: Int
        var reason: String
        /// The store's signing time in epoch milliseconds; 0 when the notice carried none.
        var signedAt: Int64

        /// Reads a notice from a row with ``RefundNoticeTable/columns``.
        init(row: any LedgerRow) throws {
            let row = TableRow<RefundNoticeTable>(row)
            kind = try row.enumeration(RefundNotice.Kind.self, .kind)
            share = Int(try row.requiredInteger(.refundedShare))
            reason = try row.requiredText(.reason)
            signedAt = try row.timestamp(.signedAt)?.ledgerMilliseconds ?? 0
        }
    }

    private let notices: [Notice]

    /// Orders `notices` (given in arrival order) by signing date; a notice without one sorts
    /// first. Notices signed in the same millisecond are ordered so that each one moves the
    /// share the way the store's notices can: a reversal only when some share is refunded
    /// (it only ever follows the refund it undoes, and may overtake it on the way), a refund
    /// or revocation only when it raises the share (the share is cumulative: it only grows
    /// until a reversal). Where both could come next, a refund or revocation comes before a
    /// reversal and a smaller share before a larger one; then arrival order decides.
    init(notices: [Notice]) {
        let byDate = Dictionary(grouping: notices.enumerated(), by: \.element.signedAt)
        var ordered: [Notice] = []
        var share = 0
        for signedAt in byDate.keys.sorted() {
            var tied = byDate[signedAt, default: []].sorted {
                ($0.element.kind == .reversal ? 1 : 0, $0.element.share, $0.offset)
                    < ($1.element.kind == .reversal ? 1 : 0, $1.element.share, $1.offset)
            }
            while !tied.isEmpty {
                let next = tied.firstIndex { Self.moves(share, by: $0.element) } ?? tied.startIndex
                share = tied[next].element.share
                ordered.append(tied.remove(at: next).element)
            }
        }
        self.notices = ordered
    }

    /// Whether `notice` can follow a refunded share of `share`: a reversal of some refund, or
    /// a refund or revocation that raises the share.
    private static func moves(_ share: Int, by notice: Notice) -> Bool {
        notice.kind == .reversal ? share > 0 : notice.share > share
    }

    /// Whether no refund notice is recorded.
    var isEmpty: Bool { notices.isEmpty }

    /// The refunded share (milliunits) the store's latest word sets: 0 when none is recorded
    /// or the latest is a reversal, ``RefundShare/whole`` when it refunds or revokes all.
    var share: Int { notices.last?.share ?? 0 }

    /// The store's own word for its latest notice (``RefundNotice/reason``), if any.
    var latestReason: String? { notices.last?.reason }
}
