import AppStoreModel
import Foundation

/// One auto-renewable subscription chain (all transactions with one
/// `originalTransactionId`): what Apple keeps between its transactions, the renewal
/// intent and the billing state.
public struct EmulatedSubscription: Codable, Hashable, Sendable {
    /// Where renewal billing stands.
    public enum Billing: String, Codable, Hashable, Sendable {
        /// Renewals charge.
        case ok
        /// A renewal failed; the subscriber keeps service until `gracePeriodExpiresDate`.
        case gracePeriod = "grace_period"
        /// A renewal failed; Apple retries, the subscriber has no service.
        case billingRetry = "billing_retry"
    }

    /// The chain's key: its first transaction's id.
    public var originalTransactionId: String
    /// The device whose transactions the chain's renewals are (its latest buyer, or the
    /// family member a shared chain belongs to).
    public var deviceId: String
    public var environment: AppStoreEnvironment
    /// The product of the latest transaction.
    public var productId: String
    /// The product the next renewal charges (a downgrade changes it).
    public var autoRenewProductId: String
    /// Whether the subscription renews at the end of its period.
    public var autoRenewEnabled: Bool
    public var billing: Billing
    /// While in a grace period (and after it, until the chain recovers or expires), in
    /// milliseconds since 1970.
    public var gracePeriodExpiresDate: Int64?
    /// Why it expired, once it did.
    public var expirationIntent: ExpirationIntent?
    /// Whether Apple expired it (EXPIRED): no renewal until the customer resubscribes.
    public var ended: Bool
    /// The transaction that backs the chain now.
    public var latestTransactionId: String
    /// Milliseconds since 1970: the chain's first purchase.
    public var originalPurchaseDate: Int64
    /// Milliseconds since 1970: the start of the current run of uninterrupted service.
    public var recentSubscriptionStartDate: Int64
    /// For a family member's chain: the purchaser's `originalTransactionId`.
    public var familySharedFrom: String?

    /// A new chain whose first transaction is `transaction`.
    init(first transaction: EmulatedTransaction) {
        self.originalTransactionId = transaction.originalTransactionId
        self.deviceId = transaction.deviceId
        self.environment = transaction.environment
        self.productId = transaction.productId
        self.autoRenewProductId = transaction.productId
        self.autoRenewEnabled = true
        self.billing = .ok
        self.gracePeriodExpiresDate = nil
        self.expirationIntent = nil
        self.ended = false
        self.latestTransactionId = transaction.transactionId
        self.originalPurchaseDate = transaction.originalPurchaseDate ?? transaction.purchaseDate
        self.recentSubscriptionStartDate = transaction.purchaseDate
        self.familySharedFrom = transaction.familySharedFrom
    }

    /// Apple's status of the chain at `now` (milliseconds since 1970), given its latest
    /// transaction: revoked (5) once that is refunded or revoked, expired (2) once Apple
    /// expired it or its period ended with renewal off, grace period (4) until the grace
    /// period ends, billing retry (3) after a failed renewal, active (1) otherwise: also
    /// when the period of a purchaser's chain ended with renewal on and the renewal clock
    /// has not decided yet (Apple renews at the boundary, so no status of Apple's reads
    /// expired there). A family member's copy past its period reads expired: it renews only
    /// when the purchaser's chain does.
    func status(latest: EmulatedTransaction, at now: Int64) -> SubscriptionStatus {
        if latest.isRevoked { return .revoked }
        if ended { return .expired }
        switch billing {
        case .gracePeriod:
            return (gracePeriodExpiresDate ?? 0) > now ? .billingGracePeriod : .billingRetry
        case .billingRetry:
            return .billingRetry
        case .ok:
            // A family member's copy renews only with the purchaser's chain, never by the clock.
            return periodEnded(latest, at: now) && (!autoRenewEnabled || familySharedFrom != nil) ? .expired : .active
        }
    }

    /// Whether the latest transaction's period is over at `now`.
    private func periodEnded(_ latest: EmulatedTransaction, at now: Int64) -> Bool {
        latest.expiresDate.map { $0 <= now } ?? false
    }

    /// The renewal information Apple would sign at `now`; a period over with renewal off
    /// says why (voluntary) before the renewal clock's EXPIRED records it.
    func renewalInfo(
        latest: EmulatedTransaction, renewalPrice: Int64, signedAt now: Date
    ) -> JWSRenewalInfoDecodedPayload {
        let inRetry = !ended && billing != .ok
        let lapsedUnrenewed =
            billing == .ok && !autoRenewEnabled && periodEnded(latest, at: Int64(now.timeIntervalSince1970 * 1000))
        return JWSRenewalInfoDecodedPayload(
            expirationIntent: expirationIntent ?? (lapsedUnrenewed ? .customerCancelled : nil),
            originalTransactionId: originalTransactionId,
            autoRenewProductId: autoRenewProductId,
            productId: productId,
            autoRenewStatus: autoRenewEnabled && !ended && !latest.isRevoked ? .on : .off,
            isInBillingRetryPeriod: inRetry,
            gracePeriodExpiresDate: inRetry ? gracePeriodExpiresDate : nil,
            signedDate: Int64(now.timeIntervalSince1970 * 1000),
            environment: environment,
            recentSubscriptionStartDate: recentSubscriptionStartDate,
            renewalDate: latest.expiresDate,
            currency: latest.currency,
            renewalPrice: renewalPrice,
            appAccountToken: latest.appAccountToken,
            appTransactionId: latest.appTransactionId
        )
    }
}
