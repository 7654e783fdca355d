import Foundation
import PlayModel

extension PlayEmulator {
    /// The push subscription named in every push's envelope.
    public static let pushSubscription = "projects/storekeeper-emulator/subscriptions/play-rtdn"

    /// Publishes a notification of `eventTime` with one of its parts filled: kept in the
    /// state (saved with the change that caused it) until its push ends, and handed to the
    /// sink by the next ``sendPendingNotifications()``.
    func publish(
        _ state: inout PlayState, eventTime: Date, oneTimeProduct: OneTimeProductNotification? = nil,
        subscription: SubscriptionNotification? = nil, voidedPurchase: VoidedPurchaseNotification? = nil,
        test: TestNotification? = nil
    ) {
        state.publish(
            PlayOutgoingNotification(
                messageId: PlayIdentifiers.messageId(), publishTime: now(),
                notification: DeveloperNotification(
                    packageName: packageName, eventTimeMillis: String(PlayVoidedRecord.millis(eventTime)),
                    oneTimeProductNotification: oneTimeProduct, subscriptionNotification: subscription,
                    voidedPurchaseNotification: voidedPurchase,
                    testNotification: test)))
    }

    /// Publishes `type` (``OneTimeProductNotificationType``) for `purchase` at ``now``.
    func publish(_ state: inout PlayState, oneTimeProduct type: Int, of purchase: PlayPurchase) {
        publish(
            &state, eventTime: now(),
            oneTimeProduct: OneTimeProductNotification(
                notificationType: type, purchaseToken: purchase.purchaseToken, sku: purchase.productId))
    }

    /// Publishes `type` (``SubscriptionNotificationType``) for `subscription` at `eventTime`.
    func publish(
        _ state: inout PlayState, subscription type: Int, of subscription: PlaySubscription, at eventTime: Date
    ) {
        publish(
            &state, eventTime: eventTime,
            subscription: SubscriptionNotification(
                notificationType: type, purchaseToken: subscription.purchaseToken,
                subscriptionId: subscription.productId))
    }

    /// Records `record` for `purchases.voidedpurchases.list` and publishes its voided-purchase
    /// notification: every void is told, once, whatever voided it.
    func recordVoid(_ record: PlayVoidedRecord, in state: inout PlayState) {
        state.recordVoided(record)
        publish(
            &state, eventTime: record.voidedTime,
            voidedPurchase: VoidedPurchaseNotification(
                purchaseToken: record.purchaseToken, orderId: record.orderId,
                productType: record.productType ?? VoidedPurchaseProductType.oneTime,
                refundType: record.partialQuantity == nil
                    ? VoidedPurchaseRefundType.fullRefund : VoidedPurchaseRefundType.quantityBasedPartialRefund))
    }

    /// Publishes a test notification, as the Play Console's "Send test notification" does.
    ///
    /// - Throws: ``PlayEmulatorError`` 409 `no_push_url` when no push URL is configured;
    ///   503 `storage_unavailable`.
    public func requestTestNotification() throws(PlayEmulatorError) {
        guard pushConfiguration.url != nil else {
            throw PlayEmulatorError(
                "no_push_url", "no push URL is configured (PUT /emulator/v1/play/push)", status: 409)
        }
        try update(storageFailure: PlayEmulatorError.storageUnavailable) { state throws(PlayEmulatorError) in
            publish(&state, eventTime: now(), test: TestNotification())
        }
    }

    /// Hands every published notification not yet handed over in this process to the sink,
    /// oldest first; forgets those the sink says will never be sent. Without a sink it does
    /// nothing, and the notifications wait for one. The HTTP routes call it after every
    /// request; an in-process caller of the other methods calls it itself.
    public func sendPendingNotifications() async {
        guard let sink = pushSink.withLock({ $0 }) else { return }
        let due = state.withLock { $0.takeDue() }
        for notification in due {
            let body = try? notification.envelope(subscription: Self.pushSubscription)
            let kept =
                if let body { await sink.submit(PlayPush(messageId: notification.messageId, body: body)) } else {
                    false
                }
            if !kept { pushEnded(messageId: notification.messageId) }
        }
    }

    /// The push of `messageId` ended (delivered, or given up): the notification is
    /// forgotten. Should the save fail, it stays and is pushed again after a restart, as
    /// Pub/Sub delivers at least once. (Like every change it settles the state first; what
    /// that publishes goes with the next ``sendPendingNotifications()``.)
    public func pushEnded(messageId: String) {
        try? update(storageFailure: PlayEmulatorError.storageUnavailable) {
            (state: inout PlayState) throws(PlayEmulatorError) in
            state.endPush(messageId: messageId)
        }
    }

    /// Messages published and not yet delivered, oldest first: what a restart sends again.
    public var pendingNotifications: [DeveloperNotification] {
        state.withLock { $0.outbox.map(\.notification) }
    }

    /// Delivers pushes through `sink` from now on.
    public func attach(sink: any PlayPushSink) {
        pushSink.withLock { $0 = sink }
    }

    /// The push configuration in force.
    public var pushConfiguration: PlayPushConfiguration {
        push.withLock { $0 }
    }

    /// Replaces the push configuration and points the sink at its URL.
    ///
    /// - Throws: ``PlayEmulatorError`` 400 `invalid_request` for a configuration that is not
    ///   usable (``PlayPushConfiguration``).
    public func setPushConfiguration(_ configuration: PlayPushConfiguration) async throws(PlayEmulatorError) {
        if let problem = configuration.problem { throw PlayEmulatorError("invalid_request", problem) }
        push.withLock { $0 = configuration }
        await pushSink.withLock({ $0 })?.setEndpoint(configuration.url)
    }
}
