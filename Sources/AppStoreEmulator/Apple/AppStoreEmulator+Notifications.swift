import AppStoreModel
import Foundation

/// Refunds, revocations, consumption requests and the App Store Server Notifications they
/// cause.
extension AppStoreEmulator {
    /// Refunds a transaction, in whole or in part, and sends REFUND.
    ///
    /// Refunds add up: the signed transaction's `revocationPercentage` is the share refunded
    /// so far, all refunds together, and its `revocationType` is `REFUND_FULL` once that
    /// share is all of it, `REFUND_PRORATED` before. A partially refunded transaction can be
    /// refunded again, up to all of it.
    ///
    /// - Parameters:
    ///   - percentage: The share to refund now, in milliunits (1 to 100,000); `nil` refunds
    ///     all that is not refunded yet.
    ///   - reason: Apple's `revocationReason`.
    /// - Throws: ``EmulatorError`` `invalid_percentage` (400) for a share outside 1 to
    ///   100,000; `already_refunded` (409) when all of it is refunded; `already_revoked`
    ///   (409) when it was revoked from Family Sharing; `refund_exceeds_purchase` (409) when
    ///   the share would take the refunds past all of it.
    @discardableResult
    public func refund(
        transactionId: String, percentage: Int? = nil, reason: RevocationReason = .refundedForOtherReason
    ) async throws -> EmulatedTransaction {
        if let percentage, !(1...Milliunits.whole).contains(percentage) {
            throw EmulatorError(
                "invalid_percentage", "percentage must be 1 to \(Milliunits.whole) milliunits, not \(percentage)")
        }
        var transaction = try transaction(transactionId)
        try Self.checkNotRevoked(transaction, unlessPartlyRefunded: true)
        let refunded = transaction.isRefunded ? (transaction.revocationPercentage ?? Milliunits.whole) : 0
        let share = refunded + (percentage ?? (Milliunits.whole - refunded))
        guard share <= Milliunits.whole else {
            throw EmulatorError(
                "refund_exceeds_purchase",
                "transaction \(transactionId) is \(refunded) milliunits refunded: \(percentage ?? 0) more exceeds "
                    + "\(Milliunits.whole)",
                status: 409)
        }
        transaction.refundState = .refunded
        transaction.revocationDate = Int64(Date().timeIntervalSince1970 * 1000)
        transaction.revocationReason = reason
        transaction.revocationType = share == Milliunits.whole ? .refundFull : .refundProrated
        transaction.revocationPercentage = share
        try await commitSending(transaction, .refund)
        return transaction
    }

    /// Revokes a transaction from Family Sharing, as when its purchaser stops sharing it:
    /// sends REVOKE, the signed transaction carrying `revocationType` `FAMILY_REVOKE`.
    ///
    /// Given a family member's FAMILY_SHARED transaction (``familyShare(originalTransactionId:memberDeviceId:)``),
    /// the member loses it: for a shared subscription, any transaction of the member's
    /// chain revokes that chain's latest transaction (the one REVOKE carries, and the one
    /// returned) and ends the chain, which no longer follows the purchaser's. Any other
    /// transaction of a shareable product is revoked as given.
    ///
    /// - Throws: ``EmulatorError`` `not_family_shareable` (409) for a consumable or a
    ///   non-renewing subscription, which Apple never shares; `already_refunded` or
    ///   `already_revoked` (409) when it (for a member's chain, the chain's latest
    ///   transaction) is refunded (in whole or in part) or revoked.
    @discardableResult
    public func familyRevoke(transactionId: String) async throws -> EmulatedTransaction {
        let given = try transaction(transactionId)
        guard given.type == .nonConsumable || given.type == .autoRenewable else {
            throw EmulatorError(
                "not_family_shareable",
                "transaction \(transactionId) is a \(given.type.rawValue), which Family Sharing never shares",
                status: 409)
        }
        // A member's chain is revoked through its latest transaction, which its status and
        // its following the purchaser's depend on.
        var memberChain = state.subscriptions[given.originalTransactionId].flatMap {
            $0.familySharedFrom != nil && given.familySharedFrom != nil ? $0 : nil
        }
        var transaction = try memberChain.map { try self.transaction($0.latestTransactionId) } ?? given
        try Self.checkNotRevoked(transaction, unlessPartlyRefunded: false)
        transaction.refundState = .revoked
        transaction.revocationDate = Int64(Date().timeIntervalSince1970 * 1000)
        transaction.revocationReason = .refundedForOtherReason
        transaction.revocationType = .familyRevoke
        transaction.revocationPercentage = nil
        if memberChain != nil {
            memberChain?.ended = true
            transaction.modifiedDate = transaction.revocationDate
        }
        if let memberChain {
            try await commitSending(transaction, memberChain, .revoke)
        } else {
            try await commitSending(transaction, .revoke)
        }
        return transaction
    }

    /// Declines a refund request: sends REFUND_DECLINED; the purchase stands.
    ///
    /// - Throws: ``EmulatorError`` `already_refunded` or `already_revoked` (409) when it is
    ///   refunded (in whole or in part) or revoked.
    @discardableResult
    public func declineRefund(transactionId: String) async throws -> EmulatedTransaction {
        var transaction = try transaction(transactionId)
        try Self.checkNotRevoked(transaction, unlessPartlyRefunded: false)
        transaction.refundState = .declined
        try await commitSending(transaction, .refundDeclined)
        return transaction
    }

    /// Reverses a refund, whole or partial: the purchase is valid again and its signed
    /// form loses the revocation fields; sends REFUND_REVERSED.
    ///
    /// - Throws: ``EmulatorError`` `not_refunded` (409) when it is not refunded (a
    ///   Family Sharing revocation is not a refund).
    @discardableResult
    public func reverseRefund(transactionId: String) async throws -> EmulatedTransaction {
        var transaction = try transaction(transactionId)
        guard transaction.isRefunded else {
            throw EmulatorError("not_refunded", "transaction \(transactionId) is not refunded", status: 409)
        }
        transaction.refundState = .reversed
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        transaction.revocationType = nil
        transaction.revocationPercentage = nil
        try await commitSending(transaction, .refundReversed)
        return transaction
    }

    /// Refuses (409) to act on a revoked transaction: `already_revoked` when revoked from
    /// Family Sharing, `already_refunded` when refunded, unless `unlessPartlyRefunded` and
    /// only part of it is refunded.
    private static func checkNotRevoked(
        _ transaction: EmulatedTransaction, unlessPartlyRefunded: Bool
    ) throws(EmulatorError) {
        let id = transaction.transactionId
        switch transaction.refundState {
        case .revoked:
            throw EmulatorError("already_revoked", "transaction \(id) is revoked from Family Sharing", status: 409)
        case .refunded:
            let share = transaction.revocationPercentage ?? Milliunits.whole
            guard unlessPartlyRefunded, share < Milliunits.whole else {
                let extent = share < Milliunits.whole ? "\(share) milliunits refunded" : "already refunded"
                throw EmulatorError("already_refunded", "transaction \(id) is \(extent)", status: 409)
            }
        case .none, .declined, .reversed:
            return
        }
    }

    /// A customer asked for a refund of a consumable: sends CONSUMPTION_REQUEST, which
    /// the developer answers with Send Consumption Information.
    public func requestConsumption(transactionId: String, reason: ConsumptionRequestReason = .unintendedPurchase)
        async throws
    {
        let transaction = try transaction(transactionId)
        let notification = try makeNotification(
            .consumptionRequest, transaction: transaction, consumptionReason: reason)
        try commit([.notification(notification)])
        await send(notification)
    }

    /// Sends a TEST notification (Request a Test Notification) and returns its token.
    func sendTestNotification(environment: AppStoreEnvironment) async throws -> String {
        let notification = try makeNotification(.test, environment: environment)
        try commit([.notification(notification)])
        await send(notification)
        return notification.notificationUUID
    }

    /// The notifications issued, oldest first.
    public func notifications() -> [EmulatedNotification] {
        state.notificationOrder.compactMap { state.notifications[$0] }
    }

    private func commitSending(_ transaction: EmulatedTransaction, _ type: NotificationType) async throws {
        var transaction = transaction
        if [.refund, .revoke, .refundReversed].contains(type) {
            transaction.modifiedDate = Int64(Date().timeIntervalSince1970 * 1000)
        }
        let notification = try makeNotification(type, transaction: transaction)
        try commit([.transaction(transaction), .notification(notification)])
        await send(notification)
    }

    /// Signs a notification about `transaction` (or about nothing, for TEST); for a
    /// subscription, `subscription` is its chain's version about to be committed.
    func makeNotification(
        _ type: NotificationType,
        subtype: NotificationSubtype? = nil,
        transaction: EmulatedTransaction? = nil,
        subscription: EmulatedSubscription? = nil,
        environment: AppStoreEnvironment? = nil,
        consumptionReason: ConsumptionRequestReason? = nil
    ) throws -> EmulatedNotification {
        let now = Date()
        let environment = transaction?.environment ?? environment ?? .sandbox
        // Apple's subscription notifications carry the renewal info and the status.
        let renewalInfo = try transaction.flatMap { try self.signedRenewalInfo($0, pending: subscription, at: now) }
        let status = transaction.flatMap { self.subscriptionStatus(of: $0, pending: subscription, at: now) }
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type,
            subtype: subtype,
            notificationUUID: nextNotificationUUID(),
            data: NotificationData(
                appAppleId: configuration.appAppleId,
                bundleId: configuration.bundleId,
                bundleVersion: "1",
                environment: environment,
                signedTransactionInfo: try transaction.map(signedTransaction),
                signedRenewalInfo: renewalInfo,
                status: status,
                consumptionRequestReason: consumptionReason
            ),
            version: "2.0",
            signedDate: Int64(now.timeIntervalSince1970 * 1000)
        )
        return EmulatedNotification(
            notificationUUID: payload.notificationUUID ?? "",
            notificationType: type,
            subtype: subtype,
            environment: environment,
            transactionId: transaction?.transactionId,
            signedPayload: try jwsSigner.sign(payload),
            signedDate: payload.signedDate ?? 0,
            attempts: []
        )
    }

    /// Hands a committed notification to the dispatcher.
    func send(_ notification: EmulatedNotification) async {
        await dispatcher.submit(uuid: notification.notificationUUID, signedPayload: notification.signedPayload)
    }
}
