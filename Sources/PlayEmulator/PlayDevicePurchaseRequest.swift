/// The body of `POST /emulator/v1/play/devices/{deviceId}/purchases`: what an app passes
/// to the Play Billing Library's `launchBillingFlow`.
public struct PlayDevicePurchaseRequest: Codable, Hashable, Sendable {
    /// The product to buy.
    public var productId: String
    /// `BillingFlowParams.setObfuscatedAccountId`: at most 64 characters.
    public var obfuscatedAccountId: String?
    /// `BillingFlowParams.setObfuscatedProfileId`: at most 64 characters.
    public var obfuscatedProfileId: String?
    /// Units bought (multi-quantity purchases); 1 when absent.
    public var quantity: Int?
    /// Whether the payment is slow (cash, bank transfer): the purchase stays pending.
    public var pending: Bool?
    /// `BillingFlowParams.SubscriptionUpdateParams.setOldPurchaseToken`: the purchase token
    /// of the device's subscription this purchase replaces (an upgrade, a downgrade, a plan
    /// change). The new purchase names it in `linkedPurchaseToken`; the old one ends.
    public var oldPurchaseToken: String?
    /// `SubscriptionUpdateParams.setSubscriptionReplacementMode`, Google's number
    /// (``PlaySubscriptionReplacementMode``); with ``oldPurchaseToken`` only;
    /// `WITH_TIME_PRORATION` (1) when absent.
    public var subscriptionReplacementMode: Int?

    /// Creates a request.
    public init(
        productId: String, obfuscatedAccountId: String? = nil, obfuscatedProfileId: String? = nil,
        quantity: Int? = nil, pending: Bool? = nil, oldPurchaseToken: String? = nil,
        subscriptionReplacementMode: Int? = nil
    ) {
        self.productId = productId
        self.obfuscatedAccountId = obfuscatedAccountId
        self.obfuscatedProfileId = obfuscatedProfileId
        self.quantity = quantity
        self.pending = pending
        self.oldPurchaseToken = oldPurchaseToken
        self.subscriptionReplacementMode = subscriptionReplacementMode
    }
}
