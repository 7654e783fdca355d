import Foundation
import PlayModel

extension PlayEmulator {
    /// `purchases.subscriptionsv2.get`: the subscription `token` of `packageName`.
    ///
    /// - Throws: ``GoogleErrorResponse``: 404 `applicationNotFound`, 404 `notFound` for an
    ///   unknown token.
    public func subscriptionPurchase(packageName: String, token: String) throws(GoogleErrorResponse)
        -> SubscriptionPurchaseV2
    {
        try update(storageFailure: GoogleErrors.storageUnavailable) {
            state throws(GoogleErrorResponse) -> SubscriptionPurchaseV2 in
            try Self.subscription(in: state, packageName: packageName, subscriptionId: nil, token: token, of: self)
                .subscriptionPurchase
        }
    }

    /// `purchases.subscriptions.acknowledge`: acknowledges a live subscription;
    /// acknowledging again succeeds and changes nothing. (The request's `developerPayload`
    /// is not kept: `SubscriptionPurchaseV2` has no field that would show it.)
    ///
    /// - Throws: ``GoogleErrorResponse``: 404 `applicationNotFound`, 404 `notFound`, 400
    ///   `purchaseTokenDoesNotMatchProductId` (another subscription's token), 400
    ///   `invalidPurchaseState` for one that has lapsed or was revoked.
    public func acknowledgeSubscription(
        packageName: String, subscriptionId: String, token: String
    ) throws(GoogleErrorResponse) {
        try changeSubscription(packageName: packageName, subscriptionId: subscriptionId, token: token) {
            subscription, _ throws(PlayPurchaseStateError) in
            try subscription.acknowledge()
        }
    }

    /// `purchases.subscriptions.cancel` (and `purchases.subscriptionsv2.cancel`, whose path
    /// has no `subscriptionId`): the subscription stops renewing and stays usable until its
    /// expiry (`SUBSCRIPTION_CANCELED`); canceling again changes nothing.
    ///
    /// - Throws: The errors of ``acknowledgeSubscription(packageName:subscriptionId:token:)``.
    public func cancelSubscription(packageName: String, subscriptionId: String?, token: String)
        throws(GoogleErrorResponse)
    {
        try changeSubscription(packageName: packageName, subscriptionId: subscriptionId, token: token) {
            subscription, state throws(PlayPurchaseStateError) in
            try cancel(&subscription, in: &state)
        }
    }

    /// `purchases.subscriptionsv2.revoke`: refunds the latest order (in full, or prorated)
    /// and ends the subscription at ``now`` (`SUBSCRIPTION_REVOKED`, and a voided purchase
    /// by the developer that `voidedpurchases.list` lists with `type` 1).
    ///
    /// - Throws: ``GoogleErrorResponse``: 404 `applicationNotFound`, 404 `notFound`, 400
    ///   `invalid` for a `revocationContext` without exactly one refund type, 400
    ///   `invalidPurchaseState` for one that has lapsed or was revoked.
    public func revokeSubscription(
        packageName: String, token: String, _ request: RevokeSubscriptionPurchaseRequest
    ) throws(GoogleErrorResponse) {
        let context = request.revocationContext
        guard (context?.fullRefund == nil) != (context?.proratedRefund == nil) else {
            throw GoogleErrors.invalidParameter(
                "revocationContext", "revocationContext must hold exactly one of fullRefund and proratedRefund.")
        }
        try update(storageFailure: GoogleErrors.storageUnavailable) { state throws(GoogleErrorResponse) in
            let subscription = try Self.subscription(
                in: state, packageName: packageName, subscriptionId: nil, token: token, of: self)
            guard subscription.isLive else { throw GoogleErrors.invalidPurchaseState() }
            let now = self.now()
            state.subscriptions[token] = revoke(
                subscription, at: now, recordedAt: now, source: VoidedSource.developer, reason: VoidedReason.other,
                in: &state)
        }
    }

    /// Applies `change` to a subscription the path names, under the state's lock.
    private func changeSubscription(
        packageName: String, subscriptionId: String?, token: String,
        _ change: (inout PlaySubscription, inout PlayState) throws(PlayPurchaseStateError) -> Void
    ) throws(GoogleErrorResponse) {
        try update(storageFailure: GoogleErrors.storageUnavailable) { state throws(GoogleErrorResponse) in
            var subscription = try Self.subscription(
                in: state, packageName: packageName, subscriptionId: subscriptionId, token: token, of: self)
            do {
                try change(&subscription, &state)
            } catch {
                throw GoogleErrors.invalidPurchaseState()
            }
            state.subscriptions[token] = subscription
        }
    }

    /// The subscription a method addresses, checked in Google's order: the app, the token,
    /// the subscription id (when the path has one).
    private static func subscription(
        in state: PlayState, packageName: String, subscriptionId: String?, token: String, of emulator: PlayEmulator
    ) throws(GoogleErrorResponse) -> PlaySubscription {
        guard packageName == emulator.packageName else { throw GoogleErrors.applicationNotFound() }
        guard let subscription = state.subscriptions[token] else { throw GoogleErrors.purchaseTokenNotFound() }
        if let subscriptionId, subscription.productId != subscriptionId {
            throw GoogleErrors.tokenDoesNotMatchProduct()
        }
        return subscription
    }
}
