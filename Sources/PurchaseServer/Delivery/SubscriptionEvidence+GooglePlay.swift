import Foundation
import Ledger
import PlayModel

extension SubscriptionEvidence {
    /// Google Play's word on a subscription (`SubscriptionPurchaseV2`, read after a
    /// notification of `notificationType`), in the ledger's entitlement states:
    ///
    /// - `SUBSCRIPTION_STATE_ACTIVE`: `active` until the line item's `expiryTime`, renewing
    ///   as `autoRenewingPlan.autoRenewEnabled` says;
    /// - `…_CANCELED`: still `active` until `expiryTime` (access lasts until the period
    ///   ends), not renewing; Google's EXPIRED follows;
    /// - `…_IN_GRACE_PERIOD`: `grace_period` until `expiryTime` (Google extends it to the
    ///   grace period's end);
    /// - `…_ON_HOLD`: `billing_retry`, the ledger's word for a payment Google still retries
    ///   while the player has no access (Apple's billing retry without grace is the same);
    /// - `…_PAUSED`: `expired`: no access for now, and the ledger has no paused state; a
    ///   resumption comes as a RECOVERED or RESTARTED notification, read afresh;
    /// - `…_EXPIRED`: `expired`;
    /// - a REVOKED notification (12): `revoked`, whatever the state says.
    init(
        googlePlay subscription: SubscriptionPurchaseV2, expiresDate: Date, notificationType: Int?, signedAt: Date
    ) {
        let renews = subscription.lineItems.first?.autoRenewingPlan?.autoRenewEnabled
        var standing = Standing(state: .active, until: expiresDate, autoRenew: renews, autoRenewProductId: nil)
        switch subscription.subscriptionState {
        case SubscriptionState.canceled: standing.autoRenew = false
        case SubscriptionState.inGracePeriod: standing.state = .gracePeriod
        case SubscriptionState.onHold: standing.state = .billingRetry
        case SubscriptionState.paused, SubscriptionState.expired: standing.state = .expired
        default: break
        }
        if notificationType == SubscriptionNotificationType.revoked { standing.state = .revoked }
        self.init(
            signedAt: signedAt, reason: "google_play_subscription_\(notificationType.map(String.init) ?? "report")",
            storeStanding: standing)
    }
}
