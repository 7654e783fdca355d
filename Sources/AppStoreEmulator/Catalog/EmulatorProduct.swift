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

    /// Creates a product.
    public init(
        productId: String, type: ProductType, price: Int64, currency: String = "USD", displayName: String? = nil
    ) {
        self.productId = productId
        self.type = type
        self.price = price
        self.currency = currency
        self.displayName = displayName
    }
}

extension EmulatorProduct {
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
