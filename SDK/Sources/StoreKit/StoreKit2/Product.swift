import Foundation

/// Information about a product that you configure in App Store Connect: on Linux, in the
/// emulator's catalog.
///
/// Apple: `struct Product` (https://developer.apple.com/documentation/storekit/product).
public struct Product: Identifiable, Hashable, Sendable {
    /// The type of the product identifier.
    public typealias ID = String

    /// The unique product identifier.
    public let id: Product.ID
    /// The type of the product.
    public let type: Product.ProductType
    /// A localized display name of the product.
    public let displayName: String
    /// A localized description of the product.
    public let description: String
    /// The decimal representation of the cost of the product, in local currency.
    public let price: Decimal
    /// A localized string representation of `price`.
    public let displayPrice: String
    /// A Boolean value that indicates whether the product is available for family sharing.
    public let isFamilyShareable: Bool
    /// Properties and functionality specific to auto-renewable subscriptions.
    public let subscription: Product.SubscriptionInfo?
    /// The raw JSON representation of the product information (the emulator's catalog entry).
    public let jsonRepresentation: Data
    /// The ISO 4217 code of the price's currency.
    private let currencyCode: String

    /// The format style for the numbers in the price of the product: the catalog's
    /// currency, in the `en_US` locale `displayPrice` uses.
    public var priceFormatStyle: Decimal.FormatStyle.Currency {
        Decimal.FormatStyle.Currency(code: currencyCode, locale: Locale(identifier: "en_US"))
    }

    package init(_ wire: EmulatorWire.Product) {
        id = wire.productId
        type = ProductType(rawValue: wire.type)
        displayName = wire.displayName ?? wire.productId
        description = wire.localizedDescription ?? ""
        price = Decimal(wire.price) / 1000
        displayPrice = Product.format(price, currency: wire.currency)
        currencyCode = wire.currency
        isFamilyShareable = type == .nonConsumable || type == .autoRenewable
        subscription =
            type == .autoRenewable
            ? SubscriptionInfo(
                subscriptionGroupID: wire.subscriptionGroupIdentifier ?? "20000001",
                subscriptionPeriod: SubscriptionPeriod(seconds: wire.subscriptionPeriodSeconds ?? 30 * 86_400),
                groupLevel: wire.subscriptionGroupLevel ?? 1) : nil
        jsonRepresentation = (try? JSONEncoder().encode(wire)) ?? Data()
    }

    /// Requests product data from the App Store: the catalog's products among
    /// `identifiers`, in catalog order; identifiers the catalog does not sell are left out.
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers: Collection, Identifiers.Element == String {
        let wanted = Set(identifiers)
        let client = try StoreKit2Call.client()
        return try await StoreKit2Call.run {
            try client.products().filter { wanted.contains($0.productId) }.map(Product.init)
        }
    }

    static func format(_ price: Decimal, currency: String) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: "en_US")
        formatter.currencyCode = currency
        return formatter.string(from: price as NSDecimalNumber) ?? "\(price) \(currency)"
    }
}
