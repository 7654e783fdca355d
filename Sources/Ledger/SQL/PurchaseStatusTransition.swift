import Foundation

/// A change of a purchase's status that posts to the ledger: a refund (delivered →
/// refunded, grants taken back) or its reversal (refunded → delivered, grants given
/// again). The conditional update decides: only the call whose update changes a row
/// posts, so each transition happens once however often it is asked for.
struct PurchaseStatusTransition: Sendable {
    /// The conditional update; it returns the purchase row only when it changed it.
    let update: LedgerStatement
    /// Multiplies the purchase's grants: -1 takes them back, 1 gives them again.
    let sign: Int64
    let kind: LedgerEntryKind
    let eventType: HistoryEventType
    let reason: String?

    /// What the transition did.
    enum Outcome: Sendable {
        case changed(Purchase, LedgerPosting)
        case unchanged(Purchase)
        case unknownTransaction
    }

    static func refund(transactionId: String, reason: String, at now: Date) -> PurchaseStatusTransition {
        PurchaseStatusTransition(
            update: LedgerSQL.markRefunded(transactionId: transactionId, reason: reason, at: now),
            sign: -1,
            kind: .refund,
            eventType: .refunded,
            reason: reason
        )
    }

    static func regrant(transactionId: String) -> PurchaseStatusTransition {
        PurchaseStatusTransition(
            update: LedgerSQL.markRegranted(transactionId: transactionId),
            sign: 1,
            kind: .refundReversed,
            eventType: .refundReversed,
            reason: nil
        )
    }
}

extension ReversalResult {
    init(_ outcome: PurchaseStatusTransition.Outcome) {
        switch outcome {
        case .changed(let purchase, let posting): self = .reversed(purchase, posting)
        case .unchanged(let purchase): self = .alreadyReversed(purchase)
        case .unknownTransaction: self = .unknownTransaction
        }
    }
}

extension RegrantResult {
    init(_ outcome: PurchaseStatusTransition.Outcome) {
        switch outcome {
        case .changed(let purchase, let posting): self = .regranted(purchase, posting)
        case .unchanged(let purchase): self = .alreadyGranted(purchase)
        case .unknownTransaction: self = .unknownTransaction
        }
    }
}
