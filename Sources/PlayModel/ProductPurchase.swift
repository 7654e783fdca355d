import Foundation

/// Google's `ProductPurchase` (Android Publisher API v3): the status of a user's purchase of
/// a one-time product, as `purchases.products.get` answers it. Every field keeps Google's
/// JSON name; Google omits a field it has no value for, so every field is optional and an
/// absent one is not encoded.
public struct ProductPurchase: Codable, Hashable, Sendable {
    /// The `kind` Google gives a `ProductPurchase`.
    public static let kindValue = "androidpublisher#productPurchase"

    /// `androidpublisher#productPurchase`.
    public var kind: String?
    /// When the product was purchased, in milliseconds since the epoch: an int64 as a
    /// string, as Google's JSON carries 64-bit integers.
    public var purchaseTimeMillis: String?
    /// 0 purchased, 1 canceled, 2 pending (``PurchaseState``).
    public var purchaseState: Int?
    /// 0 yet to be consumed, 1 consumed.
    public var consumptionState: Int?
    /// A developer-specified string, given when the purchase was acknowledged.
    public var developerPayload: String?
    /// The order id (`GPA.…`); Google omits it for purchases made with a promo code.
    public var orderId: String?
    /// Absent for a purchase with real money; 0 test, 1 promo, 2 rewarded.
    public var purchaseType: Int?
    /// 0 yet to be acknowledged, 1 acknowledged.
    public var acknowledgementState: Int?
    /// The purchase token that identifies this purchase.
    public var purchaseToken: String?
    /// The in-app product's SKU.
    public var productId: String?
    /// How many units were bought (absent means 1).
    public var quantity: Int?
    /// The app's obfuscated id of the user's account, set on the device at purchase time.
    public var obfuscatedExternalAccountId: String?
    /// The app's obfuscated id of the user's profile, set on the device at purchase time.
    public var obfuscatedExternalProfileId: String?
    /// The ISO 3166-1 alpha-2 billing region of the user when the product was granted.
    public var regionCode: String?
    /// How many units can still be refunded (quantity minus units already refunded).
    public var refundableQuantity: Int?

    /// Creates a purchase; `kind` is Google's by default.
    public init(
        kind: String? = ProductPurchase.kindValue, purchaseTimeMillis: String? = nil, purchaseState: Int? = nil,
        consumptionState: Int? = nil, developerPayload: String? = nil, orderId: String? = nil,
        purchaseType: Int? = nil, acknowledgementState: Int? = nil, purchaseToken: String? = nil,
        productId: String? = nil, quantity: Int? = nil, obfuscatedExternalAccountId: String? = nil,
        obfuscatedExternalProfileId: String? = nil, regionCode: String? = nil, refundableQuantity: Int? = nil
    ) {
        self.kind = kind
        self.purchaseTimeMillis = purchaseTimeMillis
        self.purchaseState = purchaseState
        self.consumptionState = consumptionState
        self.developerPayload = developerPayload
        self.orderId = orderId
        self.purchaseType = purchaseType
        self.acknowledgementState = acknowledgementState
        self.purchaseToken = purchaseToken
        self.productId = productId
        self.quantity = quantity
        self.obfuscatedExternalAccountId = obfuscatedExternalAccountId
        self.obfuscatedExternalProfileId = obfuscatedExternalProfileId
        self.regionCode = regionCode
        self.refundableQuantity = refundableQuantity
    }

    /// ``purchaseTimeMillis`` as a date; `nil` when absent or not an int64.
    public var purchaseTime: Date? {
        purchaseTimeMillis.flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
