import AppStoreModel
import Foundation
import Ledger

/// Apple's signed word on a subscription beyond its transaction: the renewal info and
/// status that came with it (a notification's `signedRenewalInfo`, an item of Get All
/// Subscription Statuses), when Apple signed it, and why the server looks at it.
struct SubscriptionEvidence: Sendable {
    /// The verified renewal info, when Apple sent one.
    var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// The status Get All Subscription Statuses reported, when it is the source.
    var status: SubscriptionStatus?
    /// When Apple signed the data (the notification's `signedDate`); `nil` uses the
    /// renewal info's, then the transaction's.
    var signedAt: Date?
    /// The notification's type and subtype (`DID_RENEW`, `DID_FAIL_TO_RENEW/GRACE_PERIOD`),
    /// or `reconciler`.
    var reason: String
    /// A store's word on the period already in the ledger's terms (Google Play's
    /// `subscriptionState`, ``SubscriptionEvidence/init(googlePlay:expiresDate:notificationType:signedAt:)``):
    /// when set, it is the standing.
    var storeStanding: Standing?

    /// What Apple's data says of a subscription period: the state, its end and the renewal
    /// intent.
    struct Standing: Equatable, Sendable {
        var state: EntitlementState
        var until: Date?
        var autoRenew: Bool?
        var autoRenewProductId: String?
    }

    /// The standing of an auto-renewable subscription whose current period ends at
    /// `expiresDate`: billing retry with a grace period Apple states is `grace_period`
    /// until the grace period's end; billing retry without one is `billing_retry`; a status
    /// of expired (2) is `expired`; otherwise `active` until `expiresDate`.
    func standing(expiresDate: Date?, ownership: Ownership) -> Standing {
        if let storeStanding { return storeStanding }
        let renewal = renewalInfo
        var standing = Standing(
            state: .active, until: expiresDate,
            autoRenew: renewal?.autoRenewStatus.map { $0 == .on },
            autoRenewProductId: renewal?.autoRenewProductId)
        let grace = renewal?.gracePeriodExpiresDateValue
        switch status {
        case .billingGracePeriod?:
            standing.state = .gracePeriod
            standing.until = grace ?? expiresDate
        case .billingRetry?:
            standing.state = .billingRetry
        case .expired?:
            standing.state = .expired
        case .revoked?:
            standing.state = ownership == .familyShared ? .revoked : .refunded
        default:
            if renewal?.isInBillingRetryPeriod == true {
                if let grace, grace > (expiresDate ?? .distantPast) {
                    standing.state = .gracePeriod
                    standing.until = grace
                } else {
                    standing.state = .billingRetry
                }
            }
        }
        // Apple dates every auto-renewable period; one without an end entitles nobody (an
        // end of nil would read as permanent).
        if standing.until == nil { standing.state = .expired }
        return standing
    }

    /// When Apple signed the evidence about `transaction`: ``signedAt``, else the later of
    /// the renewal info's and the transaction's signing dates.
    func signedAt(for transaction: VerifiedTransaction) -> Date {
        if let signedAt { return signedAt }
        guard let renewalSigned = renewalInfo?.signedDateValue else { return transaction.signedDate }
        return max(renewalSigned, transaction.signedDate)
    }
}
