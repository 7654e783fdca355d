import AppStoreModel
import Foundation

extension AppStoreServerAPIClient {
    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}?status=…`,
    /// the status of each of the customer's auto-renewable subscriptions, with the latest
    /// signed transaction and renewal info of each.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer's.
    ///   - statuses: only subscriptions with one of these statuses; empty for all.
    /// - Returns: One item per subscription group.
    /// - Throws: ``AppStoreServerAPIError``; 404 with ``APIErrorCode/transactionIdNotFound``
    ///   for an unknown id.
    public func getAllSubscriptionStatuses(
        transactionId: String, statuses: [SubscriptionStatus] = []
    ) async throws(AppStoreServerAPIError) -> StatusResponse {
        try await send(
            .get, ["inApps", "v1", "subscriptions", transactionId],
            query: statuses.map { ("status", String($0.rawValue)) }, decoding: StatusResponse.self)
    }
}
