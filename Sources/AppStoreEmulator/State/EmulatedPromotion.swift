/// A promoted In-App Purchase the customer tapped in the App Store for a device's app,
/// waiting for the app to take it (StoreKit 2's `PurchaseIntent.intents`, StoreKit 1's
/// `paymentQueue(_:shouldAddStorePayment:for:)`).
public struct EmulatedPromotion: Codable, Hashable, Sendable {
    /// The promotion's id, a lowercase UUID.
    public var promotionId: String
    /// The device whose app receives it.
    public var deviceId: String
    /// The product the customer chose.
    public var productId: String
}
