import AppStoreModel
import Foundation

/// Get App Transaction Info (App Store Server API 1.17): the app download transaction of a
/// customer, found by any of the customer's ids.
extension AppStoreEmulator {
    /// Get App Transaction Info: the app transaction of the customer `anyTransactionId`
    /// belongs to (one of their transaction ids, original or not, or their
    /// `appTransactionId`), signed now.
    ///
    /// - Throws: ``APIError`` 404 with 4040010 when `environment` knows no such id.
    public func appTransactionInfo(_ anyTransactionId: String, environment: AppStoreEnvironment) throws
        -> AppTransactionInfoResponse
    {
        let appTransaction = try customer(anyTransactionId, environment: environment)
        let payload = appTransaction.payload(
            bundleId: configuration.bundleId, appAppleId: configuration.appAppleId, signedAt: Date())
        return AppTransactionInfoResponse(signedAppTransactionInfo: try jwsSigner.sign(payload))
    }

    /// The app transaction of the customer an id belongs to (a transaction id, original or
    /// not, or an app transaction id) in `environment`: what the operations taking "any
    /// transaction id" look the customer up by.
    ///
    /// - Throws: ``APIError`` 404 with 4040010 when `environment` knows no such id.
    func customer(_ anyTransactionId: String, environment: AppStoreEnvironment) throws(APIError)
        -> EmulatedAppTransaction
    {
        guard let appTransaction = state.appTransaction(ofAnyTransactionId: anyTransactionId, in: environment) else {
            throw APIError(status: 404, code: .transactionIdNotFound, "transaction \(anyTransactionId) not found")
        }
        return appTransaction
    }
}
