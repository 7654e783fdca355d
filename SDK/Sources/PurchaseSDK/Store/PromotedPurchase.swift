/// A purchase the customer started in the App Store rather than in the game
/// (`shouldAddStorePayment` / `PurchaseIntent`): bought as soon as a player is signed in.
public struct PromotedPurchase: Codable, Hashable, Sendable {
    /// The product the customer chose.
    public var productId: String

    /// Creates an intent.
    public init(productId: String) {
        self.productId = productId
    }
}
