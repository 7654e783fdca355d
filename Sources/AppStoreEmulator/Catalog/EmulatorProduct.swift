import AppStoreModel

/// A product the emulated App Store sells.
public struct EmulatorProduct: Codable, Hashable, Sendable {
    /// The product identifier, as in App Store Connect.
    public var productId: String
    /// Consumable, non-consumable, auto-renewable or non-renewing.
    public var type: ProductType
    /// The price in milliunits of ``currency`` (990 is 0.99), as Apple's `price` field.
    public var price: Int64
    /// ISO 4217 currency code.
    public var currency: String
    /// A name a store screen can show.
    public var displayName: String?
    /// A description a store screen can show (StoreKit's `Product.description`).
    public var localizedDescription: String?
    /// Auto-renewable only: the App Store Connect id of its subscription group.
    public var subscriptionGroupIdentifier: String?
    /// Auto-renewable only: its level in the group, 1 the highest (Apple's "level"):
    /// moving to a lower number is an upgrade, to a higher one a downgrade.
    public var subscriptionGroupLevel: Int?
    /// Auto-renewable only: the real-world length of one period in seconds (30 days when
    /// absent); the emulator runs it `subscriptionTimeScale` times as long.
    public var subscriptionPeriodSeconds: Int64?
    /// Auto-renewable only: the billing grace period in seconds; `nil` when the app offers none.
    public var gracePeriodSeconds: Int64?

    /// Creates a product.
    public init(
        productId: String, type: ProductType, price: Int64, currency: String = "USD", displayName: String? = nil,
        subscriptionGroupIdentifier: String? = nil, subscriptionGroupLevel: Int? = nil,
        subscriptionPeriodSeconds: Int64? = nil, gracePeriodSeconds: Int64? = nil, localizedDescription: String? = nil
    ) {
        self.productId = productId
        self.type = type
        self.price = price
        self.currency = currency
        self.displayName = displayName
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.subscriptionGroupLevel = subscriptionGroupLevel
        self.subscriptionPeriodSeconds = subscriptionPeriodSeconds
        self.gracePeriodSeconds = gracePeriodSeconds
        self.localizedDescription = localizedDescription
    }
}

extension EmulatorProduct {
    /// The group an auto-renewable product renews in: its own, or the emulator's one
    /// group (`20000001`) when the catalog names none; `nil` for other types.
    var groupIdentifier: String? {
        type == .autoRenewable ? (subscriptionGroupIdentifier ?? EmulatedTransaction.subscriptionGroup) : nil
    }

    /// The group level, 1 when the catalog gives none.
    var groupLevel: Int { subscriptionGroupLevel ?? 1 }

    /// The real-world period in seconds: the catalog's, or 30 days.
    var periodSeconds: Int64 { subscriptionPeriodSeconds ?? 30 * 86_400 }
}

extension EmulatorProduct {
    /// The longest subscription or grace period a catalog may give: 10 years of 365.25 days.
    static let longestPeriodSeconds: Int64 = 3_652 * 86_400 + 43_200

    /// The lowest level (highest number) a subscription group may give a product.
    static let lowestGroupLevel = 1_000

    /// Why the catalog cannot sell this product, or `nil` when it can: an empty product
    /// id, a negative price, a group level outside 1…``lowestGroupLevel``, or a
    /// subscription or grace period that is not positive or is longer than 10 years.
    var problem: String? {
        guard !productId.isEmpty else { return "a product id must not be empty" }
        guard price >= 0 else { return "\(productId)'s price must not be negative" }
        if let level = subscriptionGroupLevel, !(1...Self.lowestGroupLevel).contains(level) {
            return "\(productId)'s subscriptionGroupLevel must be 1 to \(Self.lowestGroupLevel), not \(level)"
        }
        for (name, seconds) in [
            ("subscriptionPeriodSeconds", subscriptionPeriodSeconds), ("gracePeriodSeconds", gracePeriodSeconds),
        ] {
            guard let seconds, !(1...Self.longestPeriodSeconds).contains(seconds) else { continue }
            return
                "\(productId)'s \(name) must be positive and at most 10 years (\(Self.longestPeriodSeconds) s), not \(seconds)"
        }
        return nil
    }

    /// The price of `quantity` units, in milliunits of ``currency``.
    ///
    /// - Throws: ``EmulatorError`` `price_overflow` when the total does not fit in `Int64`
    ///   (a catalog price too large for the quantity).
    func price(quantity: Int) throws(EmulatorError) -> Int64 {
        let (total, overflow) = price.multipliedReportingOverflow(by: Int64(quantity))
        guard !overflow else {
            throw EmulatorError(
                "price_overflow", "price \(price) of \(productId) times quantity \(quantity) exceeds a 64-bit price")
        }
        return total
    }
}
