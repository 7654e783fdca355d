import AppStoreModel
import Foundation

/// Get All Subscription Statuses: the status of each of a customer's auto-renewable
/// subscriptions, with its latest transaction and renewal information.
extension AppStoreEmulator {
    /// Get All Subscription Statuses for the customer `anyTransactionId` belongs to (one of
    /// their transaction ids, original or not, or their `appTransactionId`).
    ///
    /// One item per subscription group the customer subscribed in, each listing the
    /// latest transaction of each of their subscriptions (one per original transaction)
    /// in purchase order. The emulator does not renew: each subscription is its one
    /// purchase, and its status is active until `expiresDate`, expired from it, revoked
    /// once refunded or revoked.
    ///
    /// - Parameter statuses: Only subscriptions with one of these statuses; `nil` or empty
    ///   for all. A group left with none is left out.
    /// - Throws: ``APIError`` 404 with 4040010 when `environment` knows no such id.
    public func subscriptionStatuses(
        _ anyTransactionId: String,
        statuses: Set<SubscriptionStatus>? = nil,
        environment: AppStoreEnvironment
    ) throws -> StatusResponse {
        let customer = try customer(anyTransactionId, environment: environment)
        let now = Date()
        let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1000)
        var latest: [String: EmulatedTransaction] = [:]
        var originals: [String] = []
        for transaction in state.transactions(of: customer.deviceId, in: environment)
        where transaction.type == .autoRenewable {
            if latest.updateValue(transaction, forKey: transaction.originalTransactionId) == nil {
                originals.append(transaction.originalTransactionId)
            }
        }
        var groups: [String] = []
        var items: [String: [LastTransactionsItem]] = [:]
        for original in originals {
            guard let transaction = latest[original], let group = transaction.subscriptionGroupIdentifier,
                let status = transaction.subscriptionStatus(at: nowMilliseconds)
            else { continue }
            if let statuses, !statuses.isEmpty, !statuses.contains(status) { continue }
            if items[group] == nil { groups.append(group) }
            items[group, default: []].append(
                LastTransactionsItem(
                    status: status,
                    originalTransactionId: original,
                    signedTransactionInfo: try signedTransaction(transaction),
                    signedRenewalInfo: try signedRenewalInfo(transaction, at: now)
                ))
        }
        return StatusResponse(
            environment: environment,
            bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId,
            data: groups.map {
                SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0, lastTransactions: items[$0])
            }
        )
    }
}
