import AppStoreAPI
import Foundation
import Ledger
import Logging

/// Makes Apple carry the binding support's lookup made (App Store Server API's Set App
/// Account Token): the purchase's original transaction gets the `appAccountToken` of the
/// order the ledger bound it to, so that Apple's later signed data and notifications about
/// it (a renewal, a refund, a consumption request) name that order, and through it the
/// player, without support's help.
///
/// The binding in the ledger stands whatever Apple answers. Each outcome is a history event
/// (``HistoryEventType/appAccountTokenSetAtApple`` or
/// ``HistoryEventType/appAccountTokenAtAppleFailed``) and part of support's answer;
/// repeating the lookup sets the token again while Apple's transaction lacks it.
struct AppAccountTokenBinder: Sendable {
    let client: AppStoreServerAPIClient
    let store: any LedgerStore
    let metrics: ServerMetrics
    let logger: Logger

    /// Sets the token of `purchase`'s order at Apple when the transaction Apple signed
    /// (`appleToken`, from Look Up Order ID just now) does not carry it; `nil` when there is
    /// nothing to do (no order, or Apple carries its token already).
    ///
    /// - Throws: the ledger's error when the database failed.
    func bindAtApple(_ purchase: Purchase, appleToken: String?) async throws -> AppAccountTokenAnswer? {
        guard let orderId = purchase.orderId, let order = try await store.order(id: orderId),
            order.appAccountToken != appleToken?.lowercased()
        else { return nil }
        var detail = ["originalTransactionId": purchase.originalTransactionId]
        do {
            try await client.setAppAccountToken(
                originalTransactionId: purchase.originalTransactionId, appAccountToken: order.appAccountToken)
        } catch {
            metrics.recordAppleFollowUp("set_app_account_token", success: false)
            detail.merge(error.historyDetail) { _, apple in apple }
            try await store.appendEvent(HistoryEvent(.appAccountTokenAtAppleFailed, about: purchase, detail: detail))
            logger.warning(
                "Set App Account Token failed",
                metadata: ["transactionId": .string(purchase.transactionId), "error": .string("\(error)")])
            return AppAccountTokenAnswer(
                status: .failed, orderId: orderId,
                reason: error.errorCode.map { String($0.rawValue) } ?? error.kind.rawValue,
                message: "\(error)", retryable: error.isRetryable)
        }
        metrics.recordAppleFollowUp("set_app_account_token", success: true)
        try await store.appendEvent(HistoryEvent(.appAccountTokenSetAtApple, about: purchase, detail: detail))
        return AppAccountTokenAnswer(status: .set, orderId: orderId)
    }
}
