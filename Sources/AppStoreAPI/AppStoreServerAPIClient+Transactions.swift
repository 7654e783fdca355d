import AppStoreModel
import Foundation

extension AppStoreServerAPIClient {
    /// Finish Transaction: `POST /inApps/v1/transactions/{transactionId}/finish` (App Store
    /// Server API 1.20). Tells the App Store that the server finished providing the
    /// transaction's content, as the app's `Transaction.finish()` would: the transaction
    /// leaves the customer's unfinished transactions. Apple answers 200 with no body.
    ///
    /// - Parameter transactionId: the transaction to finish (not an original transaction id
    ///   of another transaction, nor an app transaction id).
    /// - Throws: ``AppStoreServerAPIError``; 404 with ``APIErrorCode/transactionIdNotFound``
    ///   for an unknown id.
    public func finishTransaction(transactionId: String) async throws(AppStoreServerAPIError) {
        _ = try await perform(
            .post, ["inApps", "v1", "transactions", transactionId, "finish"], body: Optional<NoBody>.none)
    }

    /// Set App Account Token:
    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` (App Store Server
    /// API 1.16). Binds the purchase to a customer account of the app's: the transaction and
    /// every later one sharing its original transaction id carry `appAccountToken` in their
    /// signed data and notifications. Apple answers 200 with no body.
    ///
    /// - Parameters:
    ///   - originalTransactionId: the purchase's original transaction id (Apple refuses
    ///     another transaction id with ``APIErrorCode/transactionIdIsNotOriginalTransactionId``).
    ///   - appAccountToken: a UUID (Apple refuses anything else with
    ///     ``APIErrorCode/invalidAppAccountTokenUUID``), or an empty string to remove the token.
    /// - Throws: ``AppStoreServerAPIError``; a Family Sharing transaction is refused with
    ///   ``APIErrorCode/familyTransactionNotSupported``.
    public func setAppAccountToken(
        originalTransactionId: String, appAccountToken: String
    ) async throws(AppStoreServerAPIError) {
        _ = try await perform(
            .put, ["inApps", "v1", "transactions", originalTransactionId, "appAccountToken"],
            body: UpdateAppAccountTokenRequest(appAccountToken: appAccountToken))
    }
}
