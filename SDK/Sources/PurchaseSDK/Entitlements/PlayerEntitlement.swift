import Foundation

/// One entitlement of the player as the purchase server keeps it
/// (`GET /v1/players/me/entitlements`): what a product unlocks, derived on the server from
/// Apple's signed data, never from the device.
public struct PlayerEntitlement: Codable, Hashable, Sendable {
    /// What it unlocks (`vip`, `levelpack1`); several products may unlock the same one.
    public var entitlementId: String
    /// The product that backs it now.
    public var productId: String
    /// Where it stands.
    public var state: State
    /// Whether it entitles the player: as the server answered it, or, in a snapshot served
    /// from the cache, as ``isEntitled(at:)`` says at the time the snapshot was served.
    public var entitled: Bool
    /// The first purchase of its chain (Apple's `originalPurchaseDate`).
    public var since: Date
    /// When it stops entitling (Apple's `expiresDate`, or the grace period's end); `nil`
    /// for a permanent one (non-consumable).
    public var until: Date?
    /// Whether the subscription renews (auto-renewable only).
    public var autoRenew: Bool?
    /// The product the next renewal buys (auto-renewable only; a downgrade shows here).
    public var autoRenewProductId: String?
    /// Apple's `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var ownership: String
    /// The transaction that backs it now.
    public var transactionId: String
    /// Apple's `originalTransactionId` of its chain (or non-consumable purchase).
    public var originalTransactionId: String
    /// Apple's environment (`Production`, `Sandbox`, …).
    public var environment: String

    /// Creates an entitlement.
    public init(
        entitlementId: String, productId: String, state: State, entitled: Bool, since: Date, until: Date?,
        autoRenew: Bool? = nil, autoRenewProductId: String? = nil, ownership: String = "PURCHASED",
        transactionId: String, originalTransactionId: String, environment: String
    ) {
        self.entitlementId = entitlementId
        self.productId = productId
        self.state = state
        self.entitled = entitled
        self.since = since
        self.until = until
        self.autoRenew = autoRenew
        self.autoRenewProductId = autoRenewProductId
        self.ownership = ownership
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.environment = environment
    }

    /// Whether it entitles at `date` by its own fields: an entitling state
    /// (``State/entitles``) and `date` before ``until``. The offline rule: the
    /// device's clock decides, the server is not asked.
    public func isEntitled(at date: Date) -> Bool {
        state.entitles && (until.map { date < $0 } ?? true)
    }

    /// The entitlement as it stands at `date` without asking the server: an entitling
    /// state past ``until`` becomes ``State/expired`` (as the server reports
    /// it), and ``entitled`` is ``isEntitled(at:)``.
    func standing(at date: Date) -> PlayerEntitlement {
        var standing = self
        if state.entitles && !isEntitled(at: date) { standing.state = .expired }
        standing.entitled = standing.isEntitled(at: date)
        return standing
    }
}
