/// Google's `VoidedPurchase` (Android Publisher API v3): a purchase that was canceled,
/// refunded or charged back, as `purchases.voidedpurchases.list` lists it. Every field keeps
/// Google's JSON name; the times are int64s carried as strings, as Google's JSON carries
/// 64-bit integers.
public struct VoidedPurchase: Codable, Hashable, Sendable {
    /// The `kind` Google gives a `VoidedPurchase`.
    public static let kindValue = "androidpublisher#voidedPurchase"

    /// `androidpublisher#voidedPurchase`.
    public var kind: String?
    /// The token of the voided purchase.
    public var purchaseToken: String?
    /// When the purchase was made, milliseconds since the epoch (an int64 as a string).
    public var purchaseTimeMillis: String?
    /// When the purchase was canceled, refunded or charged back, milliseconds since the
    /// epoch (an int64 as a string).
    public var voidedTimeMillis: String?
    /// The order id of the voided purchase.
    public var orderId: String?
    /// Who voided it: ``VoidedSource``.
    public var voidedSource: Int?
    /// Why it was voided: ``VoidedReason``.
    public var voidedReason: Int?
    /// The units refunded by a quantity-based partial refund; present only on such
    /// refunds, which the list gives only with `includeQuantityBasedPartialRefund=true`.
    public var voidedQuantity: Int?

    /// Creates a voided purchase; `kind` is Google's by default.
    public init(
        kind: String? = VoidedPurchase.kindValue, purchaseToken: String? = nil, purchaseTimeMillis: String? = nil,
        voidedTimeMillis: String? = nil, orderId: String? = nil, voidedSource: Int? = nil,
        voidedReason: Int? = nil, voidedQuantity: Int? = nil
    ) {
        self.kind = kind
        self.purchaseToken = purchaseToken
        self.purchaseTimeMillis = purchaseTimeMillis
        self.voidedTimeMillis = voidedTimeMillis
        self.orderId = orderId
        self.voidedSource = voidedSource
        self.voidedReason = voidedReason
        self.voidedQuantity = voidedQuantity
    }
}
