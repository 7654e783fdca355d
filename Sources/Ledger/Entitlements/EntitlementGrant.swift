import Foundation

/// What a delivery sets on the entitlement of its original transaction (see
/// ``Delivery/entitlement`` and ``LedgerStore/deliver(_:)``).
public struct EntitlementGrant: Codable, Hashable, Sendable {
    /// What the product unlocks.
    public var entitlementId: String
    /// What kind of product it is.
    public var productType: ProductKind
    /// The state Apple's data gives it.
    public var state: EntitlementState
    /// The first purchase of the chain (Apple's `originalPurchaseDate`).
    public var since: Date
    /// The absolute end (auto-renewable: `expiresDate`, or the grace period's end); `nil`
    /// for a permanent one. Ignored when ``stackSeconds`` is set.
    public var until: Date?
    /// Non-renewing: the period's length. The ledger sets `until` to the later of the
    /// purchase date and the latest `until` of the player's entitlements of the same id and
    /// product type that still entitle, plus this, inside the delivery's transaction (a
    /// second pass bought during the first starts when the first ends).
    public var stackSeconds: Int64?
    /// Whether the subscription renews (auto-renewable only).
    public var autoRenew: Bool?
    /// The product the subscription renews into (auto-renewable only).
    public var autoRenewProductId: String?
    /// Whether the holder bought it or a family member shares it.
    public var ownership: Ownership
    /// When the store signed the data the grant is derived from (Apple's `signedDate`).
    public var signedAt: Date
    /// Why, for the history and the webhook (e.g. the notification's type, `"DID_RENEW"`);
    /// `nil` names the delivery's source instead.
    public var reason: String?

    /// Creates a grant.
    public init(
        entitlementId: String,
        productType: ProductKind,
        state: EntitlementState,
        since: Date,
        until: Date?,
        stackSeconds: Int64? = nil,
        autoRenew: Bool? = nil,
        autoRenewProductId: String? = nil,
        ownership: Ownership,
        signedAt: Date,
        reason: String? = nil
    ) {
        self.entitlementId = entitlementId
        self.productType = productType
        self.state = state
        self.since = since
        self.until = until
        self.stackSeconds = stackSeconds
        self.autoRenew = autoRenew
        self.autoRenewProductId = autoRenewProductId
        self.ownership = ownership
        self.signedAt = signedAt
        self.reason = reason
    }
}
