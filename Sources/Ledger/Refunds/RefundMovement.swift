/// What a move of a purchase's refunded share did (see
/// ``LedgerWrites/move(_:toRefundedShare:reason:at:)``).
enum RefundMovement: Sendable {
    /// The share moved from `previousShare` to the purchase's (as it stands now); the
    /// posting holds the entries of the items that moved.
    case moved(Purchase, LedgerPosting, previousShare: Int)
    /// The purchase was already at the share; nothing changed.
    case unchanged(Purchase)
    /// No purchase with that transaction id was ever delivered; nothing changed.
    case unknownTransaction
}

extension ReversalResult {
    init(_ movement: RefundMovement) {
        switch movement {
        case .moved(let purchase, let posting, _): self = .reversed(purchase, posting)
        case .unchanged(let purchase): self = .alreadyReversed(purchase)
        case .unknownTransaction: self = .unknownTransaction
        }
    }
}

extension RegrantResult {
    init(_ movement: RefundMovement) {
        switch movement {
        case .moved(let purchase, let posting, _): self = .regranted(purchase, posting)
        case .unchanged(let purchase): self = .alreadyGranted(purchase)
        case .unknownTransaction: self = .unknownTransaction
        }
    }
}

extension RefundSettlement {
    init(_ movement: RefundMovement) {
        switch movement {
        case .moved(let purchase, let posting, let previousShare):
            self =
                purchase.refundedShare > previousShare ? .reversed(purchase, posting) : .regranted(purchase, posting)
        case .unchanged(let purchase): self = .unchanged(purchase)
        case .unknownTransaction: self = .unknownTransaction
        }
    }
}
