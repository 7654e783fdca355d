import Foundation
import PlayModel

/// One purchase of a one-time product on the Play side: what `purchases.products.get`
/// reads and `:acknowledge` and `:consume` change. Its property names are the field names
/// of its JSON in `play-state.json` (``PlayStateFile``): renaming one is a format change.
struct PlayPurchase: Codable, Equatable, Sendable {
    var purchaseToken: String
    var orderId: String
    var packageName: String
    var productId: String
    var deviceId: String
    var purchaseTime: Date
    /// Google's numbers: 0 purchased, 1 canceled, 2 pending.
    var purchaseState: Int
    var consumptionState = ConsumptionState.yetToBeConsumed
    var acknowledgementState = AcknowledgementState.yetToBeAcknowledged
    var developerPayload: String?
    var quantity: Int
    var obfuscatedAccountId: String?
    var obfuscatedProfileId: String?
    var regionCode = "US"
    /// When the purchase became paid (purchased at once, or a pending one completed): the
    /// start of Google's three days to acknowledge it. `nil` while pending or when a
    /// pending purchase was canceled.
    var paidTime: Date?
    /// Units refunded so far (full and quantity-based partial refunds).
    var refundedQuantity = 0

    /// Milliseconds since the epoch.
    var purchaseTimeMillis: Int64 { Int64((purchaseTime.timeIntervalSince1970 * 1000).rounded()) }

    /// Units that can still be refunded: none once canceled or while pending.
    var refundableQuantity: Int {
        purchaseState == PurchaseState.purchased ? max(0, quantity - refundedQuantity) : 0
    }

    /// The purchase as the Android Publisher API answers it.
    var productPurchase: ProductPurchase {
        ProductPurchase(
            purchaseTimeMillis: String(purchaseTimeMillis), purchaseState: purchaseState,
            consumptionState: consumptionState, developerPayload: developerPayload ?? "", orderId: orderId,
            purchaseType: 0, acknowledgementState: acknowledgementState, purchaseToken: purchaseToken,
            productId: productId, quantity: quantity, obfuscatedExternalAccountId: obfuscatedAccountId,
            obfuscatedExternalProfileId: obfuscatedProfileId, regionCode: regionCode,
            refundableQuantity: refundableQuantity)
    }
}
