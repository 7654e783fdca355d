import AppStoreModel
import Foundation

/// What Apple signs about an auto-renewable subscription beyond its transaction: its
/// group, its status and its renewal information.
///
/// The emulator does not renew subscriptions yet: a subscription is its one purchase,
/// active until its `expiresDate`, expired after it, revoked once refunded or revoked.
extension EmulatedTransaction {
    /// The subscription group of the catalog's auto-renewable products (one group; Apple's
    /// identifiers are App Store Connect's decimal ids).
    static let subscriptionGroup = "20000001"

    /// The subscription group, for an auto-renewable subscription.
    var subscriptionGroupIdentifier: String? {
        type == .autoRenewable ? Self.subscriptionGroup : nil
    }

    /// Apple's status of the subscription at `now` (milliseconds since 1970): revoked (5)
    /// when refunded or revoked, expired (2) from its `expiresDate` on, active (1) before;
    /// `nil` for any other product type.
    func subscriptionStatus(at now: Int64) -> SubscriptionStatus? {
        guard type == .autoRenewable else { return nil }
        if isRevoked { return .revoked }
        if let expiresDate, expiresDate <= now { return .expired }
        return .active
    }

    /// The renewal information Apple would sign now, for an auto-renewable subscription;
    /// `nil` for any other product type.
    ///
    /// Automatic renewal is on while the subscription is active (the next renewal would be
    /// at `expiresDate`, at `renewalPrice`), off once it expired or was revoked. Apple's
    /// offer, grace period, billing retry and price increase fields are absent: the
    /// emulator has none of them.
    func renewalInfo(renewalPrice: Int64, signedAt now: Date) -> JWSRenewalInfoDecodedPayload? {
        let signed = Int64(now.timeIntervalSince1970 * 1000)
        guard let status = subscriptionStatus(at: signed) else { return nil }
        return JWSRenewalInfoDecodedPayload(
            originalTransactionId: originalTransactionId,
            autoRenewProductId: productId,
            productId: productId,
            autoRenewStatus: status == .active ? .on : .off,
            signedDate: signed,
            environment: environment,
            recentSubscriptionStartDate: purchaseDate,
            renewalDate: expiresDate,
            currency: currency,
            renewalPrice: renewalPrice,
            appAccountToken: appAccountToken,
            appTransactionId: appTransactionId
        )
    }
}
