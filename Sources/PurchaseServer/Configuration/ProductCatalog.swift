import AppStoreModel
import Ledger

/// The products the server sells and what each grants.
public struct ProductCatalog: Codable, Hashable, Sendable {
    /// The products, in display order.
    public var products: [CatalogProduct]

    /// Creates a catalog.
    public init(products: [CatalogProduct]) {
        self.products = products
    }

    /// The product with `productId`, if sold.
    public func product(_ productId: String) -> CatalogProduct? {
        products.first { $0.productId == productId }
    }

    /// Problems that make the catalog unusable: duplicate ids, product ids and item names
    /// that are not identifiers (``IdentifierRule``), non-positive grants, and what a
    /// product's type requires (``CatalogProduct``'s kinds).
    public func validationProblems() -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for product in products {
            if let problem = IdentifierRule.problem(
                with: product.productId, maximumLength: IdentifierKind.productId.maximumLength)
            {
                problems.append("a productId is not an identifier: \(problem)")
            }
            if !seen.insert(product.productId).inserted {
                problems.append("product \(product.productId) is listed twice")
            }
            if let entitlement = product.entitlement,
                let problem = IdentifierRule.problem(with: entitlement, maximumLength: ItemName.maximumLength)
            {
                problems.append("product \(product.productId) has an entitlement that is not an identifier: \(problem)")
            }
            for (item, amount) in product.grants.sorted(by: { $0.key < $1.key }) {
                if let problem = IdentifierRule.problem(with: item, maximumLength: ItemName.maximumLength) {
                    problems.append(
                        "product \(product.productId) grants an item whose name is not an identifier: \(problem)")
                } else if amount <= 0 {
                    problems.append(
                        "product \(product.productId) grants \(amount) of \"\(item)\": amounts must be positive")
                }
            }
            problems += product.kindProblems()
        }
        return problems
    }

    /// The sample game's catalog, matching the emulator's sample store: coins and a potion
    /// (consumables), a level pack (non-consumable), two VIP subscriptions of one group
    /// (vip.premium the higher level) and a 90-day season pass.
    public static let sample = ProductCatalog(products: [
        CatalogProduct(
            productId: "coins100", type: .consumable, displayName: "100 Coins", price: 990, currency: "USD",
            grants: ["coins": 100]),
        CatalogProduct(
            productId: "coins500", type: .consumable, displayName: "500 Coins", price: 3_990, currency: "USD",
            grants: ["coins": 500]),
        CatalogProduct(
            productId: "potion", type: .consumable, displayName: "Healing Potion", price: 490, currency: "USD",
            grants: ["potion": 1]),
        CatalogProduct(
            productId: "levelpack1", type: .nonConsumable, displayName: "Level Pack 1", price: 2_990, currency: "USD",
            entitlement: "levelpack1"),
        CatalogProduct(
            productId: "vip.monthly", type: .autoRenewable, displayName: "VIP (monthly)", price: 4_990,
            currency: "USD", entitlement: "vip", subscriptionGroupIdentifier: "20000001"),
        CatalogProduct(
            productId: "vip.premium", type: .autoRenewable, displayName: "VIP Premium (monthly)", price: 9_990,
            currency: "USD", entitlement: "vip", subscriptionGroupIdentifier: "20000001"),
        CatalogProduct(
            productId: "seasonpass", type: .nonRenewing, displayName: "Season Pass", price: 9_990, currency: "USD",
            entitlement: "seasonpass", periodDays: 90),
    ])
}
