import AppStoreModel
import Foundation

/// Refunds, consumption requests and the App Store Server Notifications they cause.
extension AppStoreEmulator {
    /// Refunds a transaction: revokes it and sends REFUND.
    public func refund(transactionId: String, reason: RevocationReason = .refundedForOtherReason) async throws {
        var transaction = try transaction(transactionId)
        guard transaction.refundState != .refunded else {
            throw EmulatorError("already_refunded", "transaction \(transactionId) is already refunded", status: 409)
        }
        transaction.refundState = .refunded
        transaction.revocationDate = Int64(Date().timeIntervalSince1970 * 1000)
        transaction.revocationReason = reason
        try await commitSending(transaction, .refund)
    }

    /// Declines a refund request: sends REFUND_DECLINED; the purchase stands.
    public func declineRefund(transactionId: String) async throws {
        var transaction = try transaction(transactionId)
        guard transaction.refundState != .refunded else {
            throw EmulatorError("already_refunded", "transaction \(transactionId) is refunded", status: 409)
        }
        transaction.refundState = .declined
        try await commitSending(transaction, .refundDeclined)
    }

    /// Reverses a refund: the purchase is valid again; sends REFUND_REVERSED.
    public func reverseRefund(transactionId: String) async throws {
        var transaction = try transaction(transactionId)
        guard transaction.refundState == .refunded else {
            throw EmulatorError("not_refunded", "transaction \(transactionId) is not refunded", status: 409)
        }
        transaction.refundState = .reversed
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        try await commitSending(transaction, .refundReversed)
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
        let notification = try makeNotification(type, transaction: transaction)
        try commit([.transaction(transaction), .notification(notification)])
        await send(notification)
    }

    /// Signs a notification about `transaction` (or about nothing, for TEST).
    func makeNotification(
        _ type: NotificationType,
        subtype: NotificationSubtype? = nil,
        transaction: EmulatedTransaction? = nil,
        environment: AppStoreEnvironment? = nil,
        consumptionReason: ConsumptionRequestReason? = nil
    ) throws -> EmulatedNotification {
        let now = Date()
        let environment = transaction?.environment ?? environment ?? .sandbox
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
