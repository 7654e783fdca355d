/// A product as the store sells it.
public struct StoreProduct: Codable, Hashable, Sendable {
    /// The product identifier, as in App Store Connect.
    public var productId: String
    /// A name a store screen can show.
    public var displayName: String
    /// The price in milliunits of ``currency`` (990 is 0.99).
    public var priceMilliunits: Int64
    /// ISO 4217 currency code.
    public var currency: String

    /// Creates a product.
    public init(productId: String, displayName: String, priceMilliunits: Int64, currency: String) {
        self.productId = productId
        self.displayName = displayName
        self.priceMilliunits = priceMilliunits
        self.currency = currency
    }
}
