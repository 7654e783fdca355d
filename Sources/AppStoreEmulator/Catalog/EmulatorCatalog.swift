import AppStoreModel
import Foundation

/// The products the emulated App Store sells, from a JSON file
/// (`{"products": [{"productId": …, "type": "Consumable", "price": 990, "currency": "USD"}]}`).
public struct EmulatorCatalog: Codable, Hashable, Sendable {
    /// The products, in the order given.
    public var products: [EmulatorProduct]

    /// Creates a catalog.
    public init(products: [EmulatorProduct]) {
        self.products = products
    }

    /// The product with `productId`, if sold.
    public func product(_ productId: String) -> EmulatorProduct? {
        products.first { $0.productId == productId }
    }

    /// Reads a catalog from a JSON file.
    public static func load(from url: URL) throws -> EmulatorCatalog {
        try JSONDecoder().decode(EmulatorCatalog.self, from: Data(contentsOf: url))
    }

    /// A small game's catalog: coins and potions (consumables), a level pack
    /// (non-consumable), two VIP subscriptions in one group (monthly at level 2,
    /// premium at level 1, 30-day periods, a 16-day grace period) and a season pass.
    public static let sample = EmulatorCatalog(products: [
        EmulatorProduct(productId: "coins100", type: .consumable, price: 990, displayName: "100 Coins"),
        EmulatorProduct(productId: "coins500", type: .consumable, price: 3_990, displayName: "500 Coins"),
        EmulatorProduct(productId: "potion", type: .consumable, price: 490, displayName: "Healing Potion"),
        EmulatorProduct(productId: "levelpack1", type: .nonConsumable, price: 2_990, displayName: "Level Pack 1"),
        EmulatorProduct(
            productId: "vip.monthly", type: .autoRenewable, price: 4_990, displayName: "VIP (monthly)",
            subscriptionGroupIdentifier: "20000001", subscriptionGroupLevel: 2,
            subscriptionPeriodSeconds: 30 * 86_400, gracePeriodSeconds: 16 * 86_400),
        EmulatorProduct(
            productId: "vip.premium", type: .autoRenewable, price: 9_990, displayName: "VIP Premium (monthly)",
            subscriptionGroupIdentifier: "20000001", subscriptionGroupLevel: 1,
            subscriptionPeriodSeconds: 30 * 86_400, gracePeriodSeconds: 16 * 86_400),
        EmulatorProduct(productId: "seasonpass", type: .nonRenewing, price: 9_990, displayName: "Season Pass"),
    ])
}
