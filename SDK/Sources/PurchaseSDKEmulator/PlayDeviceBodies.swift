/// `POST /emulator/v1/play/devices/{id}/purchases`: what the app passes the Play Billing
/// Library's `launchBillingFlow` (`BillingFlowParams`).
struct PlayPurchaseRequestBody: Codable, Hashable, Sendable {
    var productId: String
    /// `setObfuscatedAccountId`: the order's app account token.
    var obfuscatedAccountId: String
    var quantity: Int
    /// Whether the buyer pays slowly (cash, bank transfer): the purchase stays pending.
    var pending: Bool
}

/// A purchase as the device holds it, the library's `Purchase`: the purchase's answer and
/// each entry of `GET …/purchases` (`queryPurchasesAsync`).
struct PlayDevicePurchaseBody: Codable, Hashable, Sendable {
    var purchaseToken: String
    var orderId: String?
    /// `Purchase.getOriginalJson()`, which ``PlayPurchaseJSON`` reads.
    var originalJson: String
    var signature: String
    /// The library's constant: 1 `PURCHASED`, 2 `PENDING`, 0 `UNSPECIFIED_STATE`.
    var purchaseState: Int
}

/// `GET …/purchases`.
struct PlayDevicePurchaseListBody: Codable, Hashable, Sendable {
    var purchases: [PlayDevicePurchaseBody]
}

/// The fields of a purchase's `originalJson` the client reads.
struct PlayPurchaseJSON: Codable, Hashable, Sendable {
    var productId: String
    var purchaseToken: String
    var obfuscatedAccountId: String?
    /// `Purchase.isAcknowledged()`: the server acknowledged (or consumed) it.
    var acknowledged: Bool
}

/// The Play Billing Library's `Purchase.PurchaseState` constants.
enum PlayLibraryPurchaseState {
    static let purchased = 1
    static let pending = 2
}
