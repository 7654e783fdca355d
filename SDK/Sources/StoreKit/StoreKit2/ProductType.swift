import Foundation

extension Product {
    /// The types of in-app purchases.
    ///
    /// Apple: `struct ProductType` (https://developer.apple.com/documentation/storekit/product/producttype).
    public struct ProductType: RawRepresentable, Equatable, Hashable, Sendable {
        /// Apple's product type string ("Consumable", "Non-Consumable", …).
        public let rawValue: String

        /// Creates a product type from its raw value.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A consumable in-app purchase.
        public static let consumable = ProductType(rawValue: "Consumable")
        /// A non-consumable in-app purchase.
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// A non-renewing subscription.
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        /// An auto-renewable subscription.
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    }
}
