/// What the server needs to verify a Google Play purchase with Google: the Play Billing
/// Library's `Purchase`, as `POST /v1/purchases` takes it under `googlePlay`.
public struct GooglePlayPurchase: Codable, Hashable, Sendable {
    /// The product bought (`Purchase.getProducts()`'s one id).
    public var productId: String
    /// `Purchase.getPurchaseToken()`: the purchase's identity at Google, which the server
    /// reads the purchase by. A secret of the player's: never logged in full.
    public var purchaseToken: String
    /// `Purchase.getOrderId()`: Google's order id (`GPA.…`); `nil` while Google gives none
    /// (a pending purchase).
    public var orderId: String?

    /// Creates a purchase.
    public init(productId: String, purchaseToken: String, orderId: String?) {
        self.productId = productId
        self.purchaseToken = purchaseToken
        self.orderId = orderId
    }
}
