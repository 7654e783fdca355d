import Foundation

/// One Apple transaction that unlocks an entitlement, as the simulation's ground truth
/// knows it: a period of an auto-renewable subscription, a non-renewing pass, a
/// non-consumable purchase, or a family member's share of one of them.
public struct PaidPeriod: Codable, Hashable, Sendable {
    /// Apple's transaction id.
    public var transactionId: String
    /// Apple's original transaction id: the chain (or the purchase) the ledger keys its
    /// entitlement by.
    public var originalTransactionId: String
    /// The product.
    public var productId: String
    /// When the period starts (Apple's `purchaseDate`).
    public var purchaseDate: Date
    /// When the period ends (Apple's `expiresDate`); `nil` for a product Apple gives no end
    /// (non-consumable, non-renewing).
    public var expiresDate: Date?
    /// Whether the period still stands at the end of the run: neither refunded nor revoked.
    public var standing: Bool
    /// The players the ground truth entitles to it: only ever one, the buyer (the payer of
    /// its `appAccountToken`) or the family member it was shared with; no restore transfer
    /// is recorded, as the simulation runs the server's default policy (`keep_with_first`),
    /// under which a restore never moves it. The last one must hold it at the end; empty
    /// when no known player bought it.
    public var holders: [String]
    /// Apple's `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var ownership: String
    /// Whether Apple refunded it and reversed the refund: it stands, but was not entitled
    /// while refunded.
    public var refundReversed: Bool

    /// The player who must hold it at the end, if known.
    public var rightHolder: String? { holders.last }

    /// Creates a period.
    public init(
        transactionId: String, originalTransactionId: String, productId: String, purchaseDate: Date,
        expiresDate: Date?, standing: Bool, holders: [String], ownership: String = "PURCHASED",
        refundReversed: Bool = false
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.standing = standing
        self.holders = holders
        self.ownership = ownership
        self.refundReversed = refundReversed
    }
}
