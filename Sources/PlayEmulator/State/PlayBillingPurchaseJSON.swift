import Foundation
import PlayModel

/// The purchase JSON the Play Billing Library hands the app (`Purchase.getOriginalJson()`)
/// and the license key signs.
struct PlayBillingPurchaseJSON: Encodable {
    var orderId: String
    var packageName: String
    var productId: String
    var purchaseTime: Int64
    /// 0 for a paid purchase; 4 while pending, which the library reads as `PENDING`; 1
    /// once canceled or refunded away.
    var purchaseState: Int
    var purchaseToken: String
    var obfuscatedAccountId: String?
    var obfuscatedProfileId: String?
    var quantity: Int
    var acknowledged: Bool

    init(_ purchase: PlayPurchase) {
        orderId = purchase.orderId
        packageName = purchase.packageName
        productId = purchase.productId
        purchaseTime = purchase.purchaseTimeMillis
        purchaseState =
            switch purchase.purchaseState {
            case PurchaseState.pending: 4
            case PurchaseState.canceled: 1
            default: 0
            }
        purchaseToken = purchase.purchaseToken
        obfuscatedAccountId = purchase.obfuscatedAccountId
        obfuscatedProfileId = purchase.obfuscatedProfileId
        quantity = purchase.quantity
        acknowledged = purchase.acknowledgementState == 1
    }

    /// The JSON text, keys in a fixed order.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
