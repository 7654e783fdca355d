import Foundation
import PlayModel

/// One voided purchase as the emulator recorded it. Its property names are the field names
/// of its JSON in `play-state.json` (``PlayStateFile``): renaming one is a format change.
struct PlayVoidedRecord: Codable, Equatable, Sendable {
    var purchaseToken: String
    var orderId: String
    var purchaseTime: Date
    /// The voided time the record reports (`voidedTimeMillis`).
    var voidedTime: Date
    /// When the emulator recorded it: what `startTime` and `endTime` filter on, as Google
    /// filters on "the time at which the record is seen as voided by our systems".
    var recordedTime: Date
    var source: Int
    var reason: Int
    /// The units of a quantity-based partial refund; `nil` for a refund that voids the
    /// whole purchase.
    var partialQuantity: Int?
    /// ``VoidedPurchaseProductType``: 1 for a subscription; `nil` (in files from before
    /// subscriptions) or 2 for a one-time product.
    var productType: Int?

    /// Whether it voids a subscription: listed only with `type` 1.
    var isSubscription: Bool { productType == VoidedPurchaseProductType.subscription }

    /// The record as Google's `VoidedPurchase`.
    var voidedPurchase: VoidedPurchase {
        VoidedPurchase(
            purchaseToken: purchaseToken, purchaseTimeMillis: String(Self.millis(purchaseTime)),
            voidedTimeMillis: String(Self.millis(voidedTime)), orderId: orderId, voidedSource: source,
            voidedReason: reason, voidedQuantity: partialQuantity)
    }

    /// Milliseconds since the epoch.
    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
}
