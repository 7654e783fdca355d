/// The type of an In-App Purchase product (Apple's `type` field of a transaction).
///
/// Unknown values decode unchanged.
public struct ProductType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the product type.
    public var rawValue: String

    /// Creates a product type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A consumable product, e.g. coins: bought, used up, bought again.
    public static let consumable: ProductType = "Consumable"
    /// A non-consumable product, bought once and owned for good.
    public static let nonConsumable: ProductType = "Non-Consumable"
    /// An auto-renewable subscription.
    public static let autoRenewable: ProductType = "Auto-Renewable Subscription"
    /// A non-renewing subscription.
    public static let nonRenewing: ProductType = "Non-Renewing Subscription"
}
