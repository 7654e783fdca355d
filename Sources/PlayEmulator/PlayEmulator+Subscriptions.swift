import Foundation
import PlayModel

extension PlayEmulator {
    /// Device `deviceId` subscribes to `product` at ``now``: a new purchase token, its first
    /// order, a period of ``PlayProduct/subscriptionPeriod`` × ``periodScale``, and
    /// `SUBSCRIPTION_PURCHASED` (4).
    ///
    /// With ``PlayDevicePurchaseRequest/oldPurchaseToken`` it replaces that subscription of
    /// the device (Google's upgrade or downgrade, in a mode that takes effect at once): the
    /// new purchase names the old token in `linkedPurchaseToken`, and the old subscription
    /// ends now (`SUBSCRIPTION_STATE_EXPIRED`, not renewing, `SUBSCRIPTION_EXPIRED` (13)),
    /// as Google treats a replaced token: no longer valid.
    ///
    /// - Throws: ``PlayEmulatorError``: 400 `invalid_request` for a pending or
    ///   multi-quantity request, a replacement mode without an old token, or one that is not
    ///   immediate (`DEFERRED` is not modelled) or not Google's; 404 `unknown_purchase` for
    ///   an old token that is no subscription of this device; 400 `invalid_purchase_state`
    ///   for an old subscription without access (ended, or on hold); 409
    ///   `item_already_owned` while the device holds another live subscription to the
    ///   product; the license key's error.
    func subscribe(
        deviceId: String, product: PlayProduct, _ request: PlayDevicePurchaseRequest
    ) throws -> PlayDevicePurchaseResult {
        guard request.pending != true, (request.quantity ?? 1) == 1, let period = product.subscriptionPeriod else {
            throw PlayEmulatorError("invalid_request", "a subscription is bought once, paid at once")
        }
        if let mode = request.subscriptionReplacementMode {
            guard request.oldPurchaseToken != nil else {
                throw PlayEmulatorError("invalid_request", "subscriptionReplacementMode needs an oldPurchaseToken")
            }
            guard PlaySubscriptionReplacementMode.immediate.contains(mode) else {
                throw PlayEmulatorError(
                    "invalid_request",
                    "subscriptionReplacementMode must be 1, 2, 3 or 5 (a replacement taking effect at once), not \(mode)"
                )
            }
        }
        let licenseKey = try licenseKey.get()
        let now = self.now()
        let subscription = PlaySubscription(
            purchaseToken: PlayIdentifiers.purchaseToken(), orderId: PlayIdentifiers.orderId(),
            packageName: packageName, productId: product.productId, deviceId: deviceId, startTime: now,
            period: period * periodScale, expiryTime: now.addingTimeInterval(period * periodScale),
            obfuscatedAccountId: request.obfuscatedAccountId, obfuscatedProfileId: request.obfuscatedProfileId,
            gracePeriod: product.gracePeriod.flatMap { $0 > 0 ? $0 * periodScale : nil },
            linkedPurchaseToken: request.oldPurchaseToken)
        try update(storageFailure: PlayEmulatorError.storageUnavailable) { state throws in
            if let old = request.oldPurchaseToken { try replace(old, deviceId: deviceId, at: now, in: &state) }
            let owned = state.subscriptions.values.contains {
                $0.deviceId == deviceId && $0.productId == product.productId && $0.isLive
            }
            guard !owned else {
                throw PlayEmulatorError(
                    "item_already_owned", "device \(deviceId) is subscribed to \(product.productId)", status: 409)
            }
            state.subscriptions[subscription.purchaseToken] = subscription
            publish(&state, subscription: SubscriptionNotificationType.purchased, of: subscription, at: now)
        }
        return try Self.deviceResult(PlayBillingPurchaseJSON(subscription), signedWith: licenseKey)
    }

    /// Ends device `deviceId`'s subscription `token` at `now` because a new purchase replaces
    /// it: expired, not renewing, its billing issue (if any) dropped, `SUBSCRIPTION_EXPIRED`
    /// told.
    ///
    /// - Throws: ``PlayEmulatorError``: 404 `unknown_purchase`, 400 `invalid_purchase_state`
    ///   (see ``subscribe(deviceId:product:_:)``).
    private func replace(
        _ token: String, deviceId: String, at now: Date, in state: inout PlayState
    ) throws(PlayEmulatorError) {
        guard var replaced = state.subscriptions[token], replaced.deviceId == deviceId else {
            throw PlayEmulatorError(
                "unknown_purchase", "device \(deviceId) has no subscription with the oldPurchaseToken", status: 404)
        }
        guard replaced.hasAccess else {
            throw PlayEmulatorError("invalid_purchase_state", "the subscription to replace has no access now")
        }
        replaced.state = SubscriptionState.expired
        replaced.autoRenewEnabled = false
        replaced.expiryTime = min(replaced.expiryTime, now)
        replaced.paymentDeclined = nil
        replaced.billingIssueStart = nil
        state.subscriptions[token] = replaced
        publish(&state, subscription: SubscriptionNotificationType.expired, of: replaced, at: now)
    }

    /// The most renewals one settling tells of, per subscription: a clock moved years ahead
    /// with a period scaled to seconds renews millions of times, and only the latest this
    /// many are published.
    static let renewalNotificationLimit = 100

    /// Moves `state`'s subscriptions to ``now``: a live one renews at each period's end
    /// while it auto-renews (`SUBSCRIPTION_RENEWED`, 2, per renewal, with a new order
    /// `…..N`), a canceled one lapses at its expiry (`SUBSCRIPTION_EXPIRED`, 13), and one not
    /// acknowledged within ``acknowledgementWindow`` of its start is refunded and revoked
    /// by Google (voided, `voidedReason` 8), as one-time purchases are. A renewal whose
    /// payment is declined starts the payment's recovery instead
    /// (``settleDeclinedPayment(_:now:in:)``).
    func settleSubscriptions(_ state: inout PlayState, now: Date) {
        for token in state.subscriptions.keys.sorted() {
            guard var subscription = state.subscriptions[token], subscription.isLive else { continue }
            let deadline =
                subscription.acknowledged ? nil : subscription.startTime.addingTimeInterval(acknowledgementWindow)
            let horizon = min(now, deadline ?? now)
            if subscription.paymentDeclined == true || subscription.billingIssueStart != nil {
                settleDeclinedPayment(&subscription, now: horizon, in: &state)
            } else if subscription.autoRenewEnabled, subscription.state == SubscriptionState.active,
                subscription.expiryTime <= horizon, subscription.period > 0
            {
                let due =
                    Int((horizon.timeIntervalSince(subscription.expiryTime) / subscription.period).rounded(.down)) + 1
                for renewal in max(0, due - Self.renewalNotificationLimit)..<due {
                    publish(
                        &state, subscription: SubscriptionNotificationType.renewed, of: subscription,
                        at: subscription.expiryTime.addingTimeInterval(Double(renewal) * subscription.period))
                }
                subscription.renewals += due
                subscription.expiryTime.addTimeInterval(Double(due) * subscription.period)
            }
            if let deadline, deadline <= now {
                subscription = revoke(
                    subscription, at: deadline, recordedAt: now, source: VoidedSource.google,
                    reason: VoidedReason.unacknowledgedPurchase, in: &state)
            } else if subscription.isLive, !subscription.autoRenewEnabled, subscription.expiryTime <= now {
                subscription.state = SubscriptionState.expired
                publish(
                    &state, subscription: SubscriptionNotificationType.expired, of: subscription,
                    at: subscription.expiryTime)
            }
            state.subscriptions[token] = subscription
        }
    }

    /// How long a subscription stays on account hold, Google retrying its payment, before it
    /// expires (before the period scale): 30 days for every product here (a developer
    /// configures it in the Play Console).
    static let accountHold: TimeInterval = 30 * 86_400

    /// Moves a subscription whose account's payment is declined to `now`: at its period's
    /// end (while it auto-renews) the renewal fails, and it enters its grace period
    /// (`SUBSCRIPTION_STATE_IN_GRACE_PERIOD`, `SUBSCRIPTION_IN_GRACE_PERIOD` 6; access kept,
    /// `expiryTime` moved to the grace period's end), then the account hold
    /// (`SUBSCRIPTION_STATE_ON_HOLD`, `SUBSCRIPTION_ON_HOLD` 5; no access) at the grace
    /// period's end (at once without one), and expires (`SUBSCRIPTION_EXPIRED` 13) when
    /// ``accountHold`` × ``periodScale`` of hold ended unpaid. Each is told at its moment.
    func settleDeclinedPayment(_ subscription: inout PlaySubscription, now: Date, in state: inout PlayState) {
        if subscription.billingIssueStart == nil {
            guard subscription.autoRenewEnabled, subscription.state == SubscriptionState.active,
                subscription.expiryTime <= now
            else { return }
            subscription.billingIssueStart = subscription.expiryTime
            if let grace = subscription.gracePeriod {
                subscription.state = SubscriptionState.inGracePeriod
                publish(
                    &state, subscription: SubscriptionNotificationType.inGracePeriod, of: subscription,
                    at: subscription.expiryTime)
                subscription.expiryTime.addTimeInterval(grace)
            }
        }
        guard let issue = subscription.billingIssueStart else { return }
        let holdStart = issue.addingTimeInterval(subscription.gracePeriod ?? 0)
        if subscription.state != SubscriptionState.onHold, holdStart <= now {
            subscription.state = SubscriptionState.onHold
            publish(&state, subscription: SubscriptionNotificationType.onHold, of: subscription, at: holdStart)
        }
        let holdEnd = holdStart.addingTimeInterval(Self.accountHold * periodScale)
        if subscription.state == SubscriptionState.onHold, holdEnd <= now {
            subscription.state = SubscriptionState.expired
            subscription.autoRenewEnabled = false
            subscription.billingIssueStart = nil
            publish(&state, subscription: SubscriptionNotificationType.expired, of: subscription, at: holdEnd)
        }
    }

    /// The account's payment works again at ``now``: a subscription in its grace period or
    /// on hold is charged, a new order (`SUBSCRIPTION_RECOVERED`, 1), active again; from
    /// grace its period runs from the failed renewal's date, from hold from now, as
    /// Google's. An active one simply renews as before.
    ///
    /// - Throws: ``PlayPurchaseStateError`` for one that has ended.
    func fixPayment(_ subscription: inout PlaySubscription, in state: inout PlayState) throws(PlayPurchaseStateError) {
        guard subscription.isLive else { throw PlayPurchaseStateError(message: "the subscription has expired") }
        subscription.paymentDeclined = nil
        guard let issue = subscription.billingIssueStart else { return }
        let now = self.now()
        let periodStart = subscription.state == SubscriptionState.onHold ? now : issue
        subscription.expiryTime = periodStart.addingTimeInterval(subscription.period)
        subscription.renewals += 1
        subscription.state = SubscriptionState.active
        subscription.billingIssueStart = nil
        publish(&state, subscription: SubscriptionNotificationType.recovered, of: subscription, at: now)
    }

    /// `subscription` revoked at `time`: expired at once, not renewing, its latest order
    /// voided (`productType` 1) and told (`SUBSCRIPTION_REVOKED`, 12, and the voided purchase).
    func revoke(
        _ subscription: PlaySubscription, at time: Date, recordedAt recorded: Date, source: Int, reason: Int,
        in state: inout PlayState
    ) -> PlaySubscription {
        var revoked = subscription
        revoked.state = SubscriptionState.expired
        revoked.autoRenewEnabled = false
        revoked.expiryTime = min(revoked.expiryTime, time)
        publish(&state, subscription: SubscriptionNotificationType.revoked, of: revoked, at: time)
        recordVoid(
            PlayVoidedRecord(
                purchaseToken: revoked.purchaseToken, orderId: revoked.latestOrderId, purchaseTime: revoked.startTime,
                voidedTime: time, recordedTime: recorded, source: source, reason: reason, partialQuantity: nil,
                productType: VoidedPurchaseProductType.subscription), in: &state)
        return revoked
    }

    /// Cancels `subscription` at ``now``: it no longer renews and lapses at its expiry
    /// (`SUBSCRIPTION_CANCELED`, 3); canceling a canceled one changes nothing.
    ///
    /// - Throws: ``PlayPurchaseStateError`` for one that has lapsed or was revoked.
    func cancel(_ subscription: inout PlaySubscription, in state: inout PlayState) throws(PlayPurchaseStateError) {
        guard subscription.isLive else { throw PlayPurchaseStateError(message: "the subscription has expired") }
        guard subscription.state == SubscriptionState.active else { return }
        subscription.state = SubscriptionState.canceled
        subscription.autoRenewEnabled = false
        publish(&state, subscription: SubscriptionNotificationType.canceled, of: subscription, at: now())
    }
}

extension PlaySubscription {
    /// Declines the account's payment from now on (``PlayDeviceAction/declinePayment``).
    mutating func declinePayment() throws(PlayPurchaseStateError) {
        guard isLive else { throw PlayPurchaseStateError(message: "the subscription has expired") }
        paymentDeclined = true
    }

    /// Acknowledges a live subscription; acknowledging again changes nothing.
    mutating func acknowledge() throws(PlayPurchaseStateError) {
        guard isLive else { throw PlayPurchaseStateError(message: "the subscription has expired") }
        guard !acknowledged else { return }
        acknowledged = true
    }
}
