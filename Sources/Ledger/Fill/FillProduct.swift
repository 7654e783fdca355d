/// A product a filled ledger's players buy (``HistoryFill``): the catalog's product in the
/// ledger's words.
public struct FillProduct: Sendable, Hashable {
    /// The store's product id.
    public var productId: String
    /// How delivery treats it.
    public var kind: ProductKind
    /// What one unit grants (consumables).
    public var grants: [String: Int64]
    /// The entitlement it unlocks (every kind but consumables).
    public var entitlement: String?
    /// The length of a period (subscriptions and passes), in days.
    public var periodDays: Int?

    /// Creates a product.
    public init(
        productId: String, kind: ProductKind, grants: [String: Int64] = [:], entitlement: String? = nil,
        periodDays: Int? = nil
    ) {
        self.productId = productId
        self.kind = kind
        self.grants = grants
        self.entitlement = entitlement
        self.periodDays = periodDays
    }
}
