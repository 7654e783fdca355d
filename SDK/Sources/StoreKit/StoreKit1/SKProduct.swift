import Foundation

/// Information about a registered product in App Store Connect: on Linux, an emulator
/// catalog entry.
///
/// Apple: `class SKProduct` (https://developer.apple.com/documentation/storekit/skproduct).
open class SKProduct: NSObject {
    /// The string that identifies the product to the Apple App Store.
    open private(set) var productIdentifier: String
    /// The name of the product.
    open private(set) var localizedTitle: String
    /// A description of the product.
    open private(set) var localizedDescription: String
    /// The cost of the product in the local currency.
    open private(set) var price: NSDecimalNumber
    /// The locale used to format the price of the product.
    open private(set) var priceLocale: Locale
    /// A Boolean value that indicates whether the product is available for family sharing.
    open private(set) var isFamilyShareable: Bool
    /// A Boolean value that indicates whether the App Store has downloadable content (never).
    open private(set) var isDownloadable = false
    /// The identifier of the subscription group to which the subscription belongs.
    open private(set) var subscriptionGroupIdentifier: String?

    init(_ wire: EmulatorWire.Product) {
        productIdentifier = wire.productId
        localizedTitle = wire.displayName ?? wire.productId
        localizedDescription = wire.localizedDescription ?? ""
        price = NSDecimalNumber(decimal: Decimal(wire.price) / 1000)
        priceLocale = Locale(identifier: "en_US@currency=\(wire.currency)")
        isFamilyShareable = wire.type == "Non-Consumable" || wire.type == "Auto-Renewable Subscription"
        subscriptionGroupIdentifier =
            wire.type == "Auto-Renewable Subscription" ? (wire.subscriptionGroupIdentifier ?? "20000001") : nil
        super.init()
    }
}
