import AppStoreModel
import Ledger

/// A product the game sells, as the server knows it: Apple's product id, what a store
/// screen shows before StoreKit answers, and what one unit grants.
public struct CatalogProduct: Codable, Hashable, Sendable {
    /// The App Store product id.
    public var productId: String
    /// Consumable, non-consumable, auto-renewable or non-renewing (Apple's `type` strings).
    public var type: ProductType
    /// A name a store screen can show.
    public var displayName: String?
    /// The price in milliunits of ``currency`` (990 is 0.99), for display only: the App Store
    /// decides what is charged.
    public var price: Int64?
    /// ISO 4217 currency code of ``price``.
    public var currency: String?
    /// What one unit grants: item → amount, e.g. `{"coins": 100}`; an entitlement is an item
    /// granted once, e.g. `{"levelpack1": 1}`. Amounts are positive.
    public var grants: Grants

    /// Creates a product.
    public init(
        productId: String,
        type: ProductType,
        displayName: String? = nil,
        price: Int64? = nil,
        currency: String? = nil,
        grants: Grants
    ) {
        self.productId = productId
        self.type = type
        self.displayName = displayName
        self.price = price
        self.currency = currency
        self.grants = grants
    }

    /// The most units one transaction may carry (StoreKit sells at most 10 at once).
    public static let maximumQuantity = 10

    /// What `quantity` units grant; `nil` for a quantity outside 1…``maximumQuantity``.
    public func grants(quantity: Int) -> Grants? {
        guard (1...Self.maximumQuantity).contains(quantity) else { return nil }
        var total: Grants = [:]
        for (item, amount) in grants {
            let (product, overflow) = amount.multipliedReportingOverflow(by: Int64(quantity))
            guard !overflow else { return nil }
            total[item] = product
        }
        return total
    }
}
