import Foundation
import PlayModel

/// One auto-renewing subscription on the Play side: a purchase token whose renewals on the
/// emulator's clock add orders `GPA.…..0`, `..1`, …. Its property names are the field names
/// of its JSON in `play-state.json` (``PlayStateFile``): renaming one is a format change.
struct PlaySubscription: Codable, Equatable, Sendable {
    var purchaseToken: String
    /// The first order's id.
    var orderId: String
    var packageName: String
    var productId: String
    var deviceId: String
    var startTime: Date
    /// The billing period, already multiplied by the emulator's period scale.
    var period: TimeInterval
    /// When the current period ends: the subscription renews then, or lapses.
    var expiryTime: Date
    /// Orders after the first.
    var renewals = 0
    var autoRenewEnabled = true
    /// ``SubscriptionState``'s name.
    var state = SubscriptionState.active
    var acknowledged = false
    var obfuscatedAccountId: String?
    var obfuscatedProfileId: String?
    var regionCode = "US"
    /// Whether the account's payment is declined (``PlayDeviceAction/declinePayment``):
    /// the next renewal fails. `nil` is false (and what a state saved before it holds).
    var paymentDeclined: Bool?
    /// The grace period, already multiplied by the emulator's period scale; `nil` for none.
    var gracePeriod: TimeInterval?
    /// When the renewal payment failed (the end of the last paid period), while the
    /// subscription is in its grace period or on hold.
    var billingIssueStart: Date?
    /// The purchase token of the subscription this one replaced
    /// (``PlayDevicePurchaseRequest/oldPurchaseToken``); `nil` for a first purchase.
    var linkedPurchaseToken: String?

    /// The latest order's id: the first order's, then `…..0`, `..1` per renewal, as Google's.
    var latestOrderId: String { renewals == 0 ? orderId : "\(orderId)..\(renewals - 1)" }

    /// Whether it has not ended: active, canceled and not yet lapsed, in its grace period
    /// or on hold.
    var isLive: Bool {
        [
            SubscriptionState.active, SubscriptionState.canceled, SubscriptionState.inGracePeriod,
            SubscriptionState.onHold,
        ].contains(state)
    }

    /// Whether it gives access: live and not on hold.
    var hasAccess: Bool { isLive && state != SubscriptionState.onHold }

    /// The subscription as `purchases.subscriptionsv2.get` answers it.
    var subscriptionPurchase: SubscriptionPurchaseV2 {
        SubscriptionPurchaseV2(
            regionCode: regionCode,
            lineItems: [
                SubscriptionPurchaseLineItem(
                    productId: productId, expiryTime: PlayTime.rfc3339(expiryTime),
                    autoRenewingPlan: AutoRenewingPlan(autoRenewEnabled: autoRenewEnabled),
                    latestSuccessfulOrderId: latestOrderId)
            ],
            startTime: PlayTime.rfc3339(startTime), subscriptionState: state, latestOrderId: latestOrderId,
            linkedPurchaseToken: linkedPurchaseToken, testPurchase: TestPurchase(),
            acknowledgementState: acknowledged
                ? SubscriptionAcknowledgementState.acknowledged : SubscriptionAcknowledgementState.pending,
            externalAccountIdentifiers: obfuscatedAccountId == nil && obfuscatedProfileId == nil
                ? nil
                : ExternalAccountIdentifiers(
                    obfuscatedExternalAccountId: obfuscatedAccountId, obfuscatedExternalProfileId: obfuscatedProfileId))
    }
}
