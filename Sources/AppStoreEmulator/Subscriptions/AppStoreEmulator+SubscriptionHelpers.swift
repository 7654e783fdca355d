import AppStoreModel
import Foundation

/// What the subscription actions share: minting transactions, finding chains, refusing
/// impossible changes, and journaling a change with its notification.
extension AppStoreEmulator {
    /// The chain, when `deviceId` is signed in to its Apple account.
    ///
    /// - Throws: ``EmulatorError`` `unknown_subscription` or `subscription_of_other_account` (404).
    func subscription(_ originalTransactionId: String, ownedBy deviceId: String) throws -> EmulatedSubscription {
        let chain = try subscription(originalTransactionId)
        guard state.device(chain.deviceId).appleAccount == state.device(deviceId).appleAccount else {
            throw EmulatorError(
                "subscription_of_other_account",
                "subscription \(originalTransactionId) belongs to another Apple account than \(deviceId)'s",
                status: 404)
        }
        return chain
    }

    /// The product the chain renews to.
    func renewalProduct(_ chain: EmulatedSubscription) throws(EmulatorError) -> EmulatorProduct {
        guard let product = catalog.product(chain.autoRenewProductId) else {
            throw EmulatorError.unknownProduct(chain.autoRenewProductId)
        }
        return product
    }

    /// `seconds` of subscription time in real milliseconds (scaled by
    /// `subscriptionTimeScale`), at least 1; the start refuses the periods and scales whose
    /// milliseconds could not be represented, and anything longer saturates.
    func scaled(seconds: Int64) -> Int64 {
        let milliseconds = (Double(seconds) * configuration.subscriptionTimeScale * 1000).rounded()
        guard milliseconds.isFinite, milliseconds < Double(Int64.max) else { return Int64.max }
        return max(1, Int64(milliseconds))
    }

    /// `date` (ms since 1970) plus `seconds` of scaled subscription time.
    ///
    /// - Throws: ``EmulatorError`` `date_out_of_range` when the sum does not fit.
    func date(_ date: Int64, plusScaled seconds: Int64) throws(EmulatorError) -> Int64 {
        let (sum, overflow) = date.addingReportingOverflow(scaled(seconds: seconds))
        guard !overflow else {
            throw EmulatorError(
                "date_out_of_range", "\(date) ms plus \(seconds) scaled seconds is past the last representable date")
        }
        return sum
    }

    /// A new `RENEWAL` transaction in `chain` for `product`, one period from
    /// `purchaseDate`, on the chain's device, with the chain's app account token and
    /// ownership.
    func nextTransaction(
        of chain: EmulatedSubscription, latest: EmulatedTransaction, product: EmulatorProduct, purchaseDate: Int64
    ) throws -> EmulatedTransaction {
        var next = try mintTransaction(
            deviceId: chain.deviceId, product: product, price: try product.price(quantity: 1),
            environment: chain.environment, purchaseDate: purchaseDate,
            originalTransactionId: chain.originalTransactionId)
        next.appAccountToken = latest.appAccountToken
        next.originalPurchaseDate = chain.originalPurchaseDate
        next.inAppOwnershipType = latest.inAppOwnershipType
        next.familySharedFrom = latest.familySharedFrom
        next.transactionReason = .renewal
        return next
    }

    /// A new, unfinished transaction with the next transaction number.
    func mintTransaction(
        deviceId: String, product: EmulatorProduct, price: Int64, environment: AppStoreEnvironment,
        purchaseDate: Int64, originalTransactionId: String?
    ) throws(EmulatorError) -> EmulatedTransaction {
        let number = state.transactions.count + 1
        let transactionId = (environment == .production ? "1" : "2") + String(format: "%015d", number)
        let isSubscription = product.type == .autoRenewable
        return EmulatedTransaction(
            transactionId: transactionId,
            originalTransactionId: originalTransactionId ?? transactionId,
            deviceId: deviceId,
            productId: product.productId,
            type: product.type,
            quantity: 1,
            appAccountToken: nil,
            environment: environment,
            purchaseDate: purchaseDate,
            expiresDate: isSubscription ? try date(purchaseDate, plusScaled: product.periodSeconds) : nil,
            webOrderLineItemId: isSubscription ? "3" + String(format: "%015d", number) : nil,
            orderId: "MK" + String(number, radix: 36).uppercased().leftPadded(to: 8),
            price: price,
            currency: product.currency,
            finished: false,
            refundState: .none,
            appTransactionId: state.appTransactionId(deviceId: deviceId, environment: environment),
            groupIdentifier: product.groupIdentifier
        )
    }

    /// The Apple account's chain in `product`'s group that a purchase resubscribes, or
    /// `nil` for a first subscription (or a product that is no subscription).
    ///
    /// - Throws: ``EmulatorError`` `already_subscribed` (409) while that chain still
    ///   serves or retries billing.
    func chainToResubscribe(
        deviceId: String, product: EmulatorProduct, environment: AppStoreEnvironment
    ) throws -> EmulatedSubscription? {
        guard let group = product.groupIdentifier else { return nil }
        let devices = state.deviceIds(ofAccount: state.device(deviceId).appleAccount)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for chain in state.subscriptionOrder.compactMap({ state.subscriptions[$0] })
        where chain.environment == environment && chain.familySharedFrom == nil && devices.contains(chain.deviceId) {
            guard let latest = state.transactions[chain.latestTransactionId],
                latest.subscriptionGroupIdentifier == group
            else { continue }
            switch chain.status(latest: latest, at: now) {
            case .expired, .revoked:
                return chain
            default:
                throw EmulatorError(
                    "already_subscribed",
                    "the Apple account already subscribes in group \(group) (\(chain.originalTransactionId))",
                    status: 409)
            }
        }
        return nil
    }

    /// Refuses (409 `subscription_not_renewable`) a chain that expired, was revoked, is a
    /// family member's copy, or (when `needsAutoRenew`) has renewal off.
    static func checkRenewable(
        _ chain: EmulatedSubscription, latest: EmulatedTransaction, needsAutoRenew: Bool
    ) throws(EmulatorError) {
        let reason: String?
        if chain.ended {
            reason = "expired"
        } else if latest.isRevoked {
            reason = "revoked"
        } else if chain.familySharedFrom != nil {
            reason = "a family member's copy, which follows the purchaser's"
        } else if needsAutoRenew && !chain.autoRenewEnabled {
            reason = "not set to renew"
        } else {
            reason = nil
        }
        if let reason {
            throw EmulatorError(
                "subscription_not_renewable", "subscription \(chain.originalTransactionId) is \(reason)",
                status: 409)
        }
    }

    /// Journals `transaction` and `chain` with Apple's notification about them, after
    /// `earlier` in the same commit (a restart finds all or none of them), and sends it.
    func commitSending(
        _ transaction: EmulatedTransaction, _ chain: EmulatedSubscription, _ type: NotificationType,
        subtype: NotificationSubtype? = nil, after earlier: [EmulatorRecord] = []
    ) async throws {
        let notification = try makeNotification(type, subtype: subtype, transaction: transaction, subscription: chain)
        try commit(earlier + [.transaction(transaction), .subscription(chain), .notification(notification)])
        await send(notification)
    }

    /// The family members' chains sharing `chain` that still follow it.
    func familyChains(of chain: EmulatedSubscription) -> [EmulatedSubscription] {
        state.subscriptionOrder.compactMap { state.subscriptions[$0] }.filter {
            $0.familySharedFrom == chain.originalTransactionId && !$0.ended
                && state.transactions[$0.latestTransactionId]?.isRevoked == false
        }
    }

    /// Gives each family member's chain a copy of the purchaser's new transaction (DID_RENEW).
    func renewFamily(
        of chain: EmulatedSubscription, with renewal: EmulatedTransaction, subtype: NotificationSubtype?
    ) async throws {
        for var member in familyChains(of: chain) {
            let latest = try transaction(member.latestTransactionId)
            var copy = try nextTransaction(
                of: member, latest: latest, product: try renewalProduct(chain), purchaseDate: renewal.purchaseDate)
            copy.expiresDate = renewal.expiresDate
            member.advance(to: copy)
            member.autoRenewProductId = chain.autoRenewProductId
            try await commitSending(copy, member, .didRenew, subtype: subtype)
        }
    }

    /// Gives each family member's chain the purchaser's billing and expiry state, with the
    /// same notification.
    func mirrorToFamily(
        _ chain: EmulatedSubscription, type: NotificationType, subtype: NotificationSubtype?
    ) async throws {
        for var member in familyChains(of: chain) {
            member.billing = chain.billing
            member.gracePeriodExpiresDate = chain.gracePeriodExpiresDate
            member.expirationIntent = chain.expirationIntent
            member.ended = chain.ended
            member.autoRenewEnabled = chain.autoRenewEnabled
            try await commitSending(try transaction(member.latestTransactionId), member, type, subtype: subtype)
        }
    }
}
