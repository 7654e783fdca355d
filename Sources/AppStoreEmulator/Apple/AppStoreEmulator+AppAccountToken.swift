import AppStoreModel
import Foundation

/// Set App Account Token.
extension AppStoreEmulator {
    /// Set App Account Token: binds a purchase to an account of the app (or unbinds it),
    /// as when the customer bought outside the app, e.g. with an offer code.
    ///
    /// As Apple's, it applies to the purchase's current transaction (for a one-time purchase,
    /// the purchase itself) and so to what is signed of it from now on: Get Transaction Info,
    /// histories, notifications. A subscription's past transactions keep their token. Any
    /// product type is accepted.
    ///
    /// - Parameters:
    ///   - originalTransactionId: the purchase's original transaction id.
    ///   - appAccountToken: a UUID, stored lowercase; `nil` removes the token.
    ///   - environment: the purchase's environment.
    /// - Throws: ``APIError`` 400 with 4000048 for an app transaction id, 4000187 for a
    ///   transaction id that is not an original one, 4000185 for a family member's
    ///   FAMILY_SHARED purchase; 404 with 4040005 for an unknown id.
    public func setAppAccountToken(
        _ originalTransactionId: String,
        _ appAccountToken: String?,
        environment: AppStoreEnvironment
    ) throws {
        try refuseAppTransactionId(originalTransactionId, environment: environment)
        guard let named = state.transactions[originalTransactionId], named.environment == environment else {
            throw APIError(
                status: 404, code: .originalTransactionIdNotFound,
                "original transaction \(originalTransactionId) not found")
        }
        guard named.originalTransactionId == originalTransactionId else {
            throw APIError(
                status: 400, code: .transactionIdIsNotOriginalTransactionId,
                "\(originalTransactionId) is not an original transaction id; its purchase's is "
                    + named.originalTransactionId)
        }
        guard named.inAppOwnershipType != .familyShared else {
            throw APIError(
                status: 400, code: .familyTransactionNotSupported,
                "\(originalTransactionId) is shared through Family Sharing")
        }
        // A subscription's current transaction is its chain's latest (renewals carry its
        // token on); a one-time purchase's, the purchase.
        let current = state.subscriptions[originalTransactionId].flatMap {
            state.transactions[$0.latestTransactionId]
        }
        var transaction = current ?? named
        transaction.appAccountToken = appAccountToken?.lowercased()
        transaction.modifiedDate = Int64(Date().timeIntervalSince1970 * 1000)
        try commit([.transaction(transaction)])
    }
}
