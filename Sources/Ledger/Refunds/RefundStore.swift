import Foundation

/// The ledger's refunds: a purchase's refunded share brought to the store's latest word,
/// and support's reversals and regrants.
public protocol RefundStore: Sendable {
    /// Reverses all of a purchase, whatever Apple's recorded word: if (and only if) it was
    /// not refunded in whole, moves its refunded share to all of it (see
    /// ``settleRefundState(store:transactionId:reason:)``), appending the negative
    /// ``LedgerEntryKind/refund`` entries of what was left (balances may go below zero:
    /// reported in the posting), a ``HistoryEventType/refunded`` event and a
    /// ``RefundMessage``. Idempotent.
    func reverse(store: Store, transactionId: String, reason: String) async throws -> ReversalResult

    /// Gives back all that was taken of a purchase, whatever Apple's recorded word: if (and
    /// only if) some share of it was refunded, moves its refunded share to none, appending
    /// positive ``LedgerEntryKind/refundReversed`` entries, a
    /// ``HistoryEventType/refundReversed`` event and a ``RefundMessage``. Idempotent.
    func regrant(store: Store, transactionId: String) async throws -> RegrantResult

    /// Brings a delivered purchase's refunded share to Apple's latest recorded refund-state
    /// word, as the notices' signed dates order them (not their arrival): the share a REFUND
    /// or REVOKE carries (all of it unless a prorated refund's `revocationPercentage` says
    /// less; Apple's share is cumulative), none after a REFUND_REVERSED; with no notice
    /// recorded it changes nothing.
    ///
    /// What is taken back of each item is always its grant's share at the purchase's
    /// refunded share, rounded down (``RefundShare``), so a move from share `a` to `b` posts the
    /// difference: negative ``LedgerEntryKind/refund`` entries (with `reason`) when the share
    /// grows, positive ``LedgerEntryKind/refundReversed`` entries when it shrinks. Each move is
    /// its entries, one ``HistoryEventType/refunded`` or ``HistoryEventType/refundReversed``
    /// event and one outbox ``RefundMessage``; a purchase already at the share changes
    /// nothing, so settling again is idempotent. The purchase is ``PurchaseStatus/refunded``
    /// at a share of all of it, ``PurchaseStatus/delivered`` otherwise.
    ///
    /// The read of the notices and the purchase and the change are one database transaction
    /// under the transaction id's transaction lock (PostgreSQL: a transaction-scoped
    /// advisory lock; SQLite: its single writer), which ``deliver(_:)`` takes too. Record a
    /// notice (``recordNotification(notificationUUID:type:subtype:transactionId:signedDate:revokedShare:receivedAt:)``,
    /// with the share it carries) before settling it: then of a delivery and a settlement, or
    /// two settlements, racing for one transaction id, the one that runs second sees what the
    /// first did.
    func settleRefundState(store: Store, transactionId: String, reason: String) async throws -> RefundSettlement
}
