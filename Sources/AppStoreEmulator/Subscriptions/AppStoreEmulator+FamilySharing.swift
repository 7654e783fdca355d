import AppStoreModel
import Foundation

/// Family Sharing: a purchaser shares a non-consumable or a subscription with a family
/// member, whose device gets its own FAMILY_SHARED transaction.
extension AppStoreEmulator {
    /// Shares the purchase whose `originalTransactionId` is given (a non-consumable or an
    /// auto-renewable chain) with the family member signed in on `memberDeviceId`.
    ///
    /// The member's device gets an unfinished transaction of its own (its own
    /// `transactionId` and `originalTransactionId`, `inAppOwnershipType` `FAMILY_SHARED`,
    /// no `appAccountToken`) and the notification Apple sends for it: SUBSCRIBED
    /// INITIAL_BUY for a subscription (whose renewals, failures and expiry the member's
    /// chain then follows), ONE_TIME_CHARGE for a non-consumable. Stopping sharing is
    /// ``familyRevoke(transactionId:)`` on the member's transaction (REVOKE).
    ///
    /// - Throws: ``EmulatorError`` `invalid_device_id` (400) for an empty device id;
    ///   `unknown_transaction` (404); `not_family_shareable`
    ///   (409) for a consumable, a non-renewing subscription, or a family member's copy;
    ///   `same_apple_account` (409) when the member's device is signed in to the
    ///   purchaser's account; `already_shared` (409) when that account already has it;
    ///   `not_shareable_now` (409) for a refunded or revoked purchase or an expired chain.
    @discardableResult
    public func familyShare(originalTransactionId: String, memberDeviceId: String) async throws
        -> EmulatedTransaction
    {
        guard !memberDeviceId.isEmpty else {
            throw EmulatorError("invalid_device_id", "the member's deviceId must not be empty")
        }
        let original = try transaction(originalTransactionId)
        guard original.type == .nonConsumable || original.type == .autoRenewable,
            original.familySharedFrom == nil, original.originalTransactionId == originalTransactionId
        else {
            throw EmulatorError(
                "not_family_shareable",
                "\(originalTransactionId) is not the original transaction of a purchased non-consumable or "
                    + "subscription", status: 409)
        }
        let memberAccount = state.device(memberDeviceId).appleAccount
        let chain = state.subscriptions[originalTransactionId]
        let source = try chain.map { try transaction($0.latestTransactionId) } ?? original
        let purchaserDevice = chain?.deviceId ?? original.deviceId
        guard state.device(purchaserDevice).appleAccount != memberAccount else {
            throw EmulatorError(
                "same_apple_account", "\(memberDeviceId) is signed in to the purchaser's Apple account", status: 409)
        }
        let memberDevices = state.deviceIds(ofAccount: memberAccount)
        // A member's subscription chain counts while it is still served (its latest
        // transaction not revoked, the chain not ended); a non-consumable's copy while it
        // is not revoked.
        let alreadyShared: Bool
        if let chain {
            alreadyShared = familyChains(of: chain).contains { memberDevices.contains($0.deviceId) }
        } else {
            alreadyShared = state.transactions.values.contains {
                $0.familySharedFrom == originalTransactionId && memberDevices.contains($0.deviceId) && !$0.isRevoked
            }
        }
        guard !alreadyShared else {
            throw EmulatorError(
                "already_shared", "\(originalTransactionId) is already shared with \(memberAccount)", status: 409)
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let serving = chain.map { $0.status(latest: source, at: now) }
        guard !source.isRevoked, serving != .expired, serving != .revoked else {
            throw EmulatorError(
                "not_shareable_now", "\(originalTransactionId) is refunded, revoked or expired", status: 409)
        }
        guard let product = catalog.product(source.productId) else {
            throw EmulatorError.unknownProduct(source.productId)
        }
        let environment = source.environment
        var shared = try mintTransaction(
            deviceId: memberDeviceId, product: product, price: source.price, environment: environment,
            purchaseDate: source.purchaseDate, originalTransactionId: nil)
        shared.expiresDate = source.expiresDate
        shared.originalPurchaseDate = source.originalPurchaseDate ?? source.purchaseDate
        shared.inAppOwnershipType = .familyShared
        shared.familySharedFrom = originalTransactionId
        var records: [EmulatorRecord] = [.device(state.device(memberDeviceId)), .transaction(shared)]
        let notification: EmulatedNotification
        if let chain {
            var member = EmulatedSubscription(first: shared)
            member.autoRenewProductId = chain.autoRenewProductId
            member.autoRenewEnabled = chain.autoRenewEnabled
            member.billing = chain.billing
            member.gracePeriodExpiresDate = chain.gracePeriodExpiresDate
            records.append(.subscription(member))
            notification = try makeNotification(
                .subscribed, subtype: .initialBuy, transaction: shared, subscription: member)
        } else {
            notification = try makeNotification(.oneTimeCharge, transaction: shared)
        }
        try commit(records + [.notification(notification)])
        await send(notification)
        return shared
    }
}
