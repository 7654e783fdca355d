import AppStoreModel
import Foundation

/// Auto-renewable subscriptions over their life: renewals, billing failures, grace
/// periods, expiry, the subscriber's renewal choices and plan changes. Each change is
/// journaled with Apple's notification about it.
extension AppStoreEmulator {
    /// A subscription chain by its `originalTransactionId`.
    ///
    /// - Throws: ``EmulatorError`` `unknown_subscription` (404).
    public func subscription(_ originalTransactionId: String) throws(EmulatorError) -> EmulatedSubscription {
        guard let chain = state.subscriptions[originalTransactionId] else {
            throw EmulatorError(
                "unknown_subscription", "no auto-renewable subscription \(originalTransactionId)", status: 404)
        }
        return chain
    }

    /// Apple's status of a chain at `now`.
    public func subscriptionStatus(_ originalTransactionId: String, at now: Date = Date()) throws -> SubscriptionStatus
    {
        let chain = try subscription(originalTransactionId)
        return chain.status(
            latest: try transaction(chain.latestTransactionId), at: Int64(now.timeIntervalSince1970 * 1000))
    }

    /// Renews a subscription (DID_RENEW): a new transaction for the renewal product
    /// (`autoRenewProductId`: a downgrade takes effect here) from the previous period's end,
    /// unfinished on the chain's device; family members' chains renew with it. A chain in
    /// billing retry or grace period recovers instead (``recoverSubscription(originalTransactionId:)``).
    ///
    /// - Throws: ``EmulatorError`` `subscription_not_renewable` (409) when it expired, was
    ///   revoked, has renewal off, or is a family member's copy (it renews with the
    ///   purchaser's).
    @discardableResult
    public func renewSubscription(originalTransactionId: String) async throws -> EmulatedTransaction {
        var chain = try subscription(originalTransactionId)
        if chain.billing != .ok { return try await recoverSubscription(originalTransactionId: originalTransactionId) }
        let latest = try transaction(chain.latestTransactionId)
        try Self.checkRenewable(chain, latest: latest, needsAutoRenew: true)
        let product = try renewalProduct(chain)
        let start = latest.expiresDate ?? Int64(Date().timeIntervalSince1970 * 1000)
        let renewal = try nextTransaction(of: chain, latest: latest, product: product, purchaseDate: start)
        chain.advance(to: renewal)
        try await commitSending(renewal, chain, .didRenew)
        try await renewFamily(of: chain, with: renewal, subtype: nil)
        return renewal
    }

    /// A renewal charge fails (DID_FAIL_TO_RENEW): the chain enters billing retry, with a
    /// grace period (subtype GRACE_PERIOD, `gracePeriodExpiresDate` = the period's end plus
    /// the product's grace) when `gracePeriod`.
    ///
    /// - Throws: ``EmulatorError`` `subscription_not_renewable` (409) as for a renewal;
    ///   `already_in_billing_retry` (409); `no_grace_period` (409) when `gracePeriod` and
    ///   the product has none.
    @discardableResult
    public func failRenewal(originalTransactionId: String, gracePeriod: Bool) async throws -> EmulatedSubscription {
        var chain = try subscription(originalTransactionId)
        let latest = try transaction(chain.latestTransactionId)
        try Self.checkRenewable(chain, latest: latest, needsAutoRenew: true)
        guard chain.billing == .ok else {
            throw EmulatorError(
                "already_in_billing_retry", "subscription \(originalTransactionId) is in billing retry", status: 409)
        }
        if gracePeriod {
            guard let grace = try renewalProduct(chain).gracePeriodSeconds else {
                throw EmulatorError(
                    "no_grace_period", "product \(chain.autoRenewProductId) has no grace period", status: 409)
            }
            chain.billing = .gracePeriod
            chain.gracePeriodExpiresDate = try date(latest.expiresDate ?? 0, plusScaled: grace)
        } else {
            chain.billing = .billingRetry
        }
        try await commitSending(latest, chain, .didFailToRenew, subtype: gracePeriod ? .gracePeriod : nil)
        try await mirrorToFamily(chain, type: .didFailToRenew, subtype: gracePeriod ? .gracePeriod : nil)
        return chain
    }

    /// The grace period ends without a successful charge (GRACE_PERIOD_EXPIRED): the chain
    /// stays in billing retry, without service.
    ///
    /// - Throws: ``EmulatorError`` `not_in_grace_period` (409).
    @discardableResult
    public func expireGracePeriod(originalTransactionId: String) async throws -> EmulatedSubscription {
        var chain = try subscription(originalTransactionId)
        guard chain.billing == .gracePeriod, !chain.ended else {
            throw EmulatorError(
                "not_in_grace_period", "subscription \(originalTransactionId) is not in a grace period", status: 409)
        }
        chain.billing = .billingRetry
        try await commitSending(try transaction(chain.latestTransactionId), chain, .gracePeriodExpired)
        try await mirrorToFamily(chain, type: .gracePeriodExpired, subtype: nil)
        return chain
    }

    /// Billing succeeds again during billing retry or grace period: a new transaction, from
    /// the period's end while in grace, from now after it. Apple's App Store Server
    /// Notifications V2 report this as DID_RENEW with subtype BILLING_RECOVERY (V2 has no
    /// DID_RECOVER).
    ///
    /// - Throws: ``EmulatorError`` `not_in_billing_retry` (409).
    @discardableResult
    public func recoverSubscription(originalTransactionId: String) async throws -> EmulatedTransaction {
        try await recoverSubscription(originalTransactionId, at: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// ``recoverSubscription(originalTransactionId:)`` at `now` (milliseconds since 1970),
    /// the renewal clock's time.
    @discardableResult
    func recoverSubscription(_ originalTransactionId: String, at now: Int64) async throws -> EmulatedTransaction {
        var chain = try subscription(originalTransactionId)
        let latest = try transaction(chain.latestTransactionId)
        guard chain.billing != .ok, !chain.ended, !latest.isRevoked, chain.familySharedFrom == nil else {
            throw EmulatorError(
                "not_in_billing_retry", "subscription \(originalTransactionId) is not in billing retry", status: 409)
        }
        let product = try renewalProduct(chain)
        let inGrace = chain.status(latest: latest, at: now) == .billingGracePeriod
        let start = inGrace ? (latest.expiresDate ?? now) : now
        let renewal = try nextTransaction(of: chain, latest: latest, product: product, purchaseDate: start)
        if !inGrace { chain.recentSubscriptionStartDate = now }
        chain.advance(to: renewal)
        try await commitSending(renewal, chain, .didRenew, subtype: .billingRecovery)
        try await renewFamily(of: chain, with: renewal, subtype: .billingRecovery)
        return renewal
    }

    /// Apple expires the subscription (EXPIRED): subtype BILLING_RETRY (`expirationIntent`
    /// 2) when it was in billing retry, VOLUNTARY (`expirationIntent` 1) when the subscriber
    /// turned renewal off.
    ///
    /// - Throws: ``EmulatorError`` `subscription_not_renewable` (409) when it already
    ///   expired or was revoked; `auto_renew_on` (409) when renewal is on and billing works
    ///   (Apple renews it rather than expire it).
    @discardableResult
    public func expireSubscription(originalTransactionId: String) async throws -> EmulatedSubscription {
        var chain = try subscription(originalTransactionId)
        let latest = try transaction(chain.latestTransactionId)
        try Self.checkRenewable(chain, latest: latest, needsAutoRenew: false)
        let subtype: NotificationSubtype
        if chain.billing != .ok {
            subtype = .billingRetry
            chain.expirationIntent = .billingError
        } else if !chain.autoRenewEnabled {
            subtype = .voluntary
            chain.expirationIntent = .customerCancelled
        } else {
            throw EmulatorError(
                "auto_renew_on",
                "subscription \(originalTransactionId) renews: turn renewal off or fail billing first", status: 409)
        }
        chain.ended = true
        chain.autoRenewEnabled = false
        chain.billing = .ok
        chain.gracePeriodExpiresDate = nil
        try await commitSending(latest, chain, .expired, subtype: subtype)
        try await mirrorToFamily(chain, type: .expired, subtype: subtype)
        return chain
    }

    /// The subscriber turns automatic renewal off or on, on a device of the chain's Apple
    /// account (DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED / AUTO_RENEW_ENABLED). No
    /// notification when it is already so.
    ///
    /// - Throws: ``EmulatorError`` `subscription_of_other_account` (404);
    ///   `subscription_not_renewable` (409) once it expired or was revoked.
    @discardableResult
    public func setAutoRenew(deviceId: String, originalTransactionId: String, enabled: Bool) async throws
        -> EmulatedSubscription
    {
        var chain = try subscription(originalTransactionId, ownedBy: deviceId)
        let latest = try transaction(chain.latestTransactionId)
        try Self.checkRenewable(chain, latest: latest, needsAutoRenew: false)
        guard chain.autoRenewEnabled != enabled else { return chain }
        chain.autoRenewEnabled = enabled
        try await commitSending(
            latest, chain, .didChangeRenewalStatus, subtype: enabled ? .autoRenewEnabled : .autoRenewDisabled)
        return chain
    }

    /// The subscriber moves to another product of the same group (DID_CHANGE_RENEWAL_PREF).
    ///
    /// An upgrade (a lower level number) or a crossgrade (the same level) takes effect now:
    /// a new transaction of the new product in the same chain (subtype UPGRADE, also for a
    /// crossgrade, which Apple handles as one; `transactionReason` `PURCHASE`), and the old
    /// transaction is refunded for its unused time (`REFUND_PRORATED`) and marked
    /// `isUpgraded`. A downgrade (a higher level number) changes
    /// only `autoRenewProductId` and takes effect at the next renewal (subtype DOWNGRADE).
    /// Choosing the current product again cancels a pending downgrade (no subtype).
    ///
    /// - Returns: The transaction backing the chain afterwards.
    /// - Throws: ``EmulatorError`` `subscription_of_other_account` (404), `unknown_product`
    ///   (404), `not_in_subscription_group` (409), `subscription_not_active` (409) unless
    ///   active or in grace period, `same_product` (409) when nothing would change.
    @discardableResult
    public func changeSubscription(deviceId: String, originalTransactionId: String, productId: String) async throws
        -> EmulatedTransaction
    {
        var chain = try subscription(originalTransactionId, ownedBy: deviceId)
        let latest = try transaction(chain.latestTransactionId)
        guard let current = catalog.product(chain.productId) else {
            throw EmulatorError.unknownProduct(chain.productId)
        }
        guard let target = catalog.product(productId) else {
            throw EmulatorError.unknownProduct(productId)
        }
        guard target.type == .autoRenewable, target.groupIdentifier == latest.subscriptionGroupIdentifier,
            chain.familySharedFrom == nil
        else {
            throw EmulatorError(
                "not_in_subscription_group",
                "\(productId) is not in subscription group \(latest.subscriptionGroupIdentifier ?? "-") "
                    + "of a subscription this account bought", status: 409)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let status = chain.status(latest: latest, at: now)
        guard status == .active || status == .billingGracePeriod else {
            throw EmulatorError(
                "subscription_not_active", "subscription \(originalTransactionId) has status \(status.rawValue)",
                status: 409)
        }
        if target.productId == current.productId {
            guard chain.autoRenewProductId != target.productId else {
                throw EmulatorError("same_product", "subscription is already \(productId)", status: 409)
            }
            chain.autoRenewProductId = target.productId
            try await commitSending(latest, chain, .didChangeRenewalPref)
            return latest
        }
        if target.groupLevel > current.groupLevel {
            chain.autoRenewProductId = target.productId
            try await commitSending(latest, chain, .didChangeRenewalPref, subtype: .downgrade)
            return latest
        }
        var old = Self.proratedRefund(of: latest, at: now)
        old.isUpgraded = true
        old.modifiedDate = now
        var upgraded = try nextTransaction(of: chain, latest: latest, product: target, purchaseDate: now)
        // The customer bought it; Apple's reason is PURCHASE, not RENEWAL.
        upgraded.transactionReason = nil
        chain.advance(to: upgraded)
        chain.autoRenewProductId = target.productId
        try await commitSending(upgraded, chain, .didChangeRenewalPref, subtype: .upgrade, after: [.transaction(old)])
        return upgraded
    }

    /// `transaction` refunded for the share of its period left at `now` (`REFUND_PRORATED`),
    /// or unchanged when none is left.
    static func proratedRefund(of transaction: EmulatedTransaction, at now: Int64) -> EmulatedTransaction {
        guard let end = transaction.expiresDate, end > now, end > transaction.purchaseDate else { return transaction }
        let length = end - transaction.purchaseDate
        let unused = min(end - now, length)
        let share = Int((Double(unused) / Double(length) * Double(Milliunits.whole)).rounded(.down))
        guard share > 0 else { return transaction }
        var refunded = transaction
        refunded.refundState = .refunded
        refunded.revocationDate = now
        refunded.revocationReason = .refundedForOtherReason
        refunded.revocationType = share >= Milliunits.whole ? .refundFull : .refundProrated
        refunded.revocationPercentage = min(share, Milliunits.whole)
        refunded.modifiedDate = now
        return refunded
    }
}
