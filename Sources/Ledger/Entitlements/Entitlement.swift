import Foundation

/// What a player holds because of one original transaction: a non-consumable purchase, a
/// non-renewing subscription's period, or an auto-renewable subscription's chain. One
/// holder per original transaction.
public struct Entitlement: Codable, Hashable, Sendable {
    /// The store that sold the purchase behind it.
    public var store: Store
    /// The store's id for the chain (Apple's original transaction id): with ``store``, the
    /// key (the chain of an auto-renewable subscription, or the purchase of a
    /// non-consumable or non-renewing product).
    public var originalTransactionId: String
    /// The player who holds it.
    public var playerId: String
    /// What the product unlocks (e.g. `"vip"`); several products may unlock the same id.
    public var entitlementId: String
    /// The App Store product that backs it now.
    public var productId: String
    /// What kind of product backs it.
    public var productType: ProductKind
    /// The transaction that backs it now (the latest renewal of a chain).
    public var transactionId: String
    /// Its state, as Apple's latest signed data says.
    public var state: EntitlementState
    /// The first purchase of the chain (Apple's `originalPurchaseDate`).
    public var since: Date
    /// When it ends (expiry, or end of the grace period); `nil` for a permanent one.
    public var until: Date?
    /// Whether the subscription renews (auto-renewable only).
    public var autoRenew: Bool?
    /// The product the subscription renews into (auto-renewable only).
    public var autoRenewProductId: String?
    /// Whether the holder bought it or a family member shares it.
    public var ownership: Ownership
    /// Where the store says the purchase was made.
    public var environment: PurchaseEnvironment
    /// When the store signed the data behind the state (Apple's `signedDate`): older data never overwrites it.
    public var signedAt: Date
    /// When the ledger last changed it.
    public var updatedAt: Date

    /// Creates an entitlement value.
    public init(
        store: Store,
        originalTransactionId: String,
        playerId: String,
        entitlementId: String,
        productId: String,
        productType: ProductKind,
        transactionId: String,
        state: EntitlementState,
        since: Date,
        until: Date?,
        autoRenew: Bool?,
        autoRenewProductId: String?,
        ownership: Ownership,
        environment: PurchaseEnvironment,
        signedAt: Date,
        updatedAt: Date
    ) {
        self.store = store
        self.originalTransactionId = originalTransactionId
        self.playerId = playerId
        self.entitlementId = entitlementId
        self.productId = productId
        self.productType = productType
        self.transactionId = transactionId
        self.state = state
        self.since = since
        self.until = until
        self.autoRenew = autoRenew
        self.autoRenewProductId = autoRenewProductId
        self.ownership = ownership
        self.environment = environment
        self.signedAt = signedAt
        self.updatedAt = updatedAt
    }

    /// Whether it entitles its holder at `date`: its state entitles and `until`, if any,
    /// is after `date`.
    public func isEntitled(at date: Date) -> Bool {
        state.entitles && (until.map { $0 > date } ?? true)
    }
}
