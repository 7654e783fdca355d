import AppStoreModel
import Ledger

/// A product the game sells, as the server knows it: Apple's product id, what a store
/// screen shows before StoreKit answers, what one unit grants and what it unlocks.
///
/// The kinds: a consumable grants currency (``grants``); a non-consumable unlocks its
/// ``entitlement`` for good; a non-renewing subscription unlocks it for ``periodDays``
/// (a second purchase during the first period starts when the first ends); an
/// auto-renewable subscription unlocks it while Apple says the subscription in
/// ``subscriptionGroupIdentifier`` is paid for (or in its grace period).
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
    /// What one unit grants: item → amount, e.g. `{"coins": 100}`. Amounts are positive.
    /// Required for a consumable; may be empty for the other kinds (when not, every
    /// transaction grants them once: a renewal grants them again).
    public var grants: Grants
    /// What the product unlocks (e.g. `"vip"`); required for every kind but a consumable,
    /// which has none. Several products may unlock the same entitlement.
    public var entitlement: String?
    /// Apple's subscription group of an auto-renewable subscription (required for one).
    public var subscriptionGroupIdentifier: String?
    /// How many days a non-renewing subscription lasts (required for one, positive).
    public var periodDays: Int?

    /// The longest period a non-renewing subscription may last: ten years.
    public static let maximumPeriodDays = 3_650

    /// Creates a product.
    public init(
        productId: String,
        type: ProductType,
        displayName: String? = nil,
        price: Int64? = nil,
        currency: String? = nil,
        grants: Grants = [:],
        entitlement: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        periodDays: Int? = nil
    ) {
        self.productId = productId
        self.type = type
        self.displayName = displayName
        self.price = price
        self.currency = currency
        self.grants = grants
        self.entitlement = entitlement
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.periodDays = periodDays
    }

    /// Decodes a product; `grants` defaults to none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productId = try container.decode(String.self, forKey: .productId)
        type = try container.decode(ProductType.self, forKey: .type)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        price = try container.decodeIfPresent(Int64.self, forKey: .price)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        grants = try container.decodeIfPresent(Grants.self, forKey: .grants) ?? [:]
        entitlement = try container.decodeIfPresent(String.self, forKey: .entitlement)
        subscriptionGroupIdentifier = try container.decodeIfPresent(
            String.self, forKey: .subscriptionGroupIdentifier)
        periodDays = try container.decodeIfPresent(Int.self, forKey: .periodDays)
    }

    private enum CodingKeys: String, CodingKey {
        case productId, type, displayName, price, currency, grants, entitlement, subscriptionGroupIdentifier
        case periodDays
    }

    /// Problems with the product's kind: what its type requires of ``grants``,
    /// ``entitlement``, ``subscriptionGroupIdentifier`` and ``periodDays``.
    func kindProblems() -> [String] {
        let name = "product \(productId)"
        var problems: [String] = []
        switch type {
        case .consumable:
            if grants.isEmpty { problems.append("\(name) is a consumable: it must grant something") }
            if entitlement != nil { problems.append("\(name) is a consumable: it unlocks no entitlement") }
        case .nonConsumable, .nonRenewing, .autoRenewable:
            if (entitlement ?? "").isEmpty {
                problems.append("\(name) is \(type.rawValue): it must name the entitlement it unlocks")
            }
        default:
            problems.append("\(name) has the unknown type \(type.rawValue)")
        }
        if type == .nonRenewing, !(1...Self.maximumPeriodDays).contains(periodDays ?? 0) {
            problems.append(
                "\(name) is a non-renewing subscription: periodDays must be 1 to \(Self.maximumPeriodDays)")
        }
        if type != .nonRenewing, periodDays != nil {
            problems.append("\(name) is not a non-renewing subscription: it has no periodDays")
        }
        if type == .autoRenewable, (subscriptionGroupIdentifier ?? "").isEmpty {
            problems.append("\(name) is an auto-renewable subscription: it must name its subscriptionGroupIdentifier")
        }
        if type != .autoRenewable, subscriptionGroupIdentifier != nil {
            problems.append("\(name) is not an auto-renewable subscription: it has no subscriptionGroupIdentifier")
        }
        return problems
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
