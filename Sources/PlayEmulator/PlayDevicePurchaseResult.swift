/// What the device learns of a purchase, as the Play Billing Library's `Purchase` holds it.
public struct PlayDevicePurchaseResult: Codable, Hashable, Sendable {
    /// `Purchase.getPurchaseToken()`: what the app sends its server.
    public var purchaseToken: String
    /// `Purchase.getOrderId()`: `GPA.` and digit groups.
    public var orderId: String
    /// `Purchase.getOriginalJson()`: the purchase JSON the signature covers.
    public var originalJson: String
    /// `Purchase.getSignature()`: base64 RSA-SHA1 (PKCS#1 v1.5) over ``originalJson`` with
    /// the app's license key (`GET /emulator/v1/play/license-key`).
    public var signature: String
    /// `Purchase.getPurchaseState()`, the library's constants: 1 `PURCHASED`, 2 `PENDING`,
    /// 0 `UNSPECIFIED_STATE` once canceled (not the server API's numbers).
    public var purchaseState: Int
}
