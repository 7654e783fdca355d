/// What a store's notice says about one transaction's refund state, in the ledger's terms:
/// the store maps its own notification to one (Apple: REFUND, REVOKE and REFUND_REVERSED),
/// and the ledger records it with the notification and settles the transaction by it.
public struct RefundNotice: Sendable, Hashable {
    /// What the store did.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The store refunded the purchase, in whole or in part.
        case refund
        /// The store revoked it (e.g. family sharing stopped), in whole or in part.
        case revoke
        /// The store reversed its refunds: none of the purchase stays refunded.
        case reversal
    }

    /// What the store did.
    public var kind: Kind
    /// The share of the purchase refunded once this notice applies (milliunits, clamped to
    /// 0...``RefundShare/whole``): the store's cumulative word, 0 for a reversal.
    public var refundedShare: Int
    /// The store's own word for the notice (Apple: the notification type, `REFUND`), kept
    /// as the reason of the refund it settles; the ledger never decides by it.
    public var reason: String

    /// A notice of `kind`; `refundedShare` is clamped, and ignored for a reversal (none).
    public init(kind: Kind, refundedShare: Int, reason: String) {
        self.kind = kind
        self.refundedShare = kind == .reversal ? 0 : min(max(refundedShare, 0), RefundShare.whole)
        self.reason = reason
    }
}
