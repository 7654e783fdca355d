/// A product as the Play side sells it: an id from the emulator's catalog and whether it is
/// a one-time product (consumable or not), the only kind this emulator's Play side sells.
public struct PlayProduct: Hashable, Sendable {
    /// The product id (Play's SKU), the same id the App Store side sells.
    public var productId: String
    /// Whether it is a one-time product; subscriptions are not sold on the Play side yet.
    public var isOneTime: Bool

    /// Creates a product.
    public init(productId: String, isOneTime: Bool) {
        self.productId = productId
        self.isOneTime = isOneTime
    }
}
