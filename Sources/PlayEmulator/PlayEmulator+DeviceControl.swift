import Foundation
import PlayModel

extension PlayEmulator {
    /// The Play Billing Library's `queryPurchasesAsync`: the purchases device `deviceId`
    /// still holds (pending or paid, not consumed, not canceled; subscriptions not lapsed),
    /// oldest first.
    ///
    /// - Throws: The license key's error.
    public func devicePurchases(deviceId: String) throws -> PlayDevicePurchaseList {
        let licenseKey = try licenseKey.get()
        let held = try update(storageFailure: PlayEmulatorError.storageUnavailable) {
            (state: inout PlayState) throws(PlayEmulatorError) in
            state.purchases.values.filter { $0.deviceId == deviceId && $0.isOwned }.map(PlayBillingPurchaseJSON.init)
                + state.subscriptions.values.filter { $0.deviceId == deviceId && $0.hasAccess }.map(
                    PlayBillingPurchaseJSON.init)
        }
        return PlayDevicePurchaseList(
            purchases: try held.sorted { ($0.purchaseTime, $0.orderId) < ($1.purchaseTime, $1.orderId) }
                .map { try Self.deviceResult($0, signedWith: licenseKey) })
    }

    /// Does `action` to device `deviceId`'s purchase `token` at ``now`` and answers the
    /// purchase as the device then holds it. Acknowledge and consume follow the same rules
    /// as the Publisher API's; `refund` takes `refund` (``PlayDeviceRefundRequest``).
    ///
    /// - Throws: ``PlayEmulatorError``: 404 `unknown_purchase` (no such token on this
    ///   device), 400 `invalid_purchase_state` (completing or canceling a purchase that is
    ///   not pending; acknowledging, consuming or refunding one that is not paid, or
    ///   consuming twice), 400 `invalid_request` (a refund quantity outside 1…the
    ///   refundable quantity); the license key's error. For a subscription's token only
    ///   `acknowledge` and `cancel` (auto-renewal off) apply; the others are 400
    ///   `invalid_purchase_state`.
    public func control(
        deviceId: String, token: String, _ action: PlayDeviceAction, refund: PlayDeviceRefundRequest? = nil
    ) throws -> PlayDevicePurchaseResult {
        let licenseKey = try licenseKey.get()
        if let subscription = try controlSubscription(deviceId: deviceId, token: token, action) {
            return try Self.deviceResult(PlayBillingPurchaseJSON(subscription), signedWith: licenseKey)
        }
        let purchase = try update(storageFailure: PlayEmulatorError.storageUnavailable) {
            state throws -> PlayPurchase in
            guard var purchase = state.purchases[token], purchase.deviceId == deviceId else {
                throw PlayEmulatorError(
                    "unknown_purchase", "device \(deviceId) has no purchase with this token", status: 404)
            }
            let now = self.now()
            do {
                switch action {
                case .complete:
                    try purchase.complete(now: now)
                    publish(&state, oneTimeProduct: OneTimeProductNotificationType.purchased, of: purchase)
                case .cancel:
                    try purchase.cancelPending()
                    publish(&state, oneTimeProduct: OneTimeProductNotificationType.canceled, of: purchase)
                case .acknowledge: try purchase.acknowledge(developerPayload: purchase.developerPayload)
                case .consume: try purchase.consume()
                case .declinePayment, .fixPayment:
                    throw PlayPurchaseStateError(message: "only a subscription's payment is declined or fixed")
                case .refund:
                    let request = refund ?? PlayDeviceRefundRequest()
                    let record = try purchase.refund(
                        quantity: request.quantity, source: try request.voidedSource(),
                        reason: try request.voidedReason(), now: now)
                    recordVoid(record, in: &state)
                }
            } catch let error as PlayPurchaseStateError {
                throw PlayEmulatorError("invalid_purchase_state", error.message)
            } catch let error as PlayRefundQuantityError {
                throw PlayEmulatorError("invalid_request", error.message)
            }
            state.purchases[token] = purchase
            return purchase
        }
        return try Self.deviceResult(purchase, signedWith: licenseKey)
    }
}

extension PlayEmulator {
    /// Does `action` to device `deviceId`'s subscription `token`; `nil` when `token` is not a
    /// subscription's.
    private func controlSubscription(
        deviceId: String, token: String, _ action: PlayDeviceAction
    ) throws(PlayEmulatorError) -> PlaySubscription? {
        try update(storageFailure: PlayEmulatorError.storageUnavailable) {
            (state: inout PlayState) throws(PlayEmulatorError) -> PlaySubscription? in
            guard var subscription = state.subscriptions[token] else { return nil }
            guard subscription.deviceId == deviceId else {
                throw PlayEmulatorError(
                    "unknown_purchase", "device \(deviceId) has no purchase with this token", status: 404)
            }
            do throws(PlayPurchaseStateError) {
                switch action {
                case .acknowledge: try subscription.acknowledge()
                case .cancel: try cancel(&subscription, in: &state)
                case .declinePayment: try subscription.declinePayment()
                case .fixPayment: try fixPayment(&subscription, in: &state)
                case .complete, .consume, .refund:
                    throw PlayPurchaseStateError(message: "a subscription cannot be \(action.rawValue)d")
                }
            } catch {
                throw PlayEmulatorError("invalid_purchase_state", error.message)
            }
            state.subscriptions[token] = subscription
            return subscription
        }
    }
}
