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
    /// A subscription's `autoRenewing`; absent for a one-time product.
    var autoRenewing: Bool?

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

    /// A subscription's purchase JSON: its latest order, paid (0) while live, 1 once lapsed.
    init(_ subscription: PlaySubscription) {
        orderId = subscription.latestOrderId
        packageName = subscription.packageName
        productId = subscription.productId
        purchaseTime = PlayVoidedRecord.millis(subscription.startTime)
        purchaseState = subscription.isLive ? 0 : 1
        purchaseToken = subscription.purchaseToken
        obfuscatedAccountId = subscription.obfuscatedAccountId
        obfuscatedProfileId = subscription.obfuscatedProfileId
        quantity = 1
        acknowledged = subscription.acknowledged
        autoRenewing = subscription.autoRenewEnabled && subscription.isLive
    }

    /// The JSON text, keys in a fixed order.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
