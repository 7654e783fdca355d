import AppStoreModel
import Foundation

/// Get All Subscription Statuses: the status of each of a customer's auto-renewable
/// subscriptions, with its latest transaction and renewal information.
extension AppStoreEmulator {
    /// Get All Subscription Statuses for the customer `anyTransactionId` belongs to (one of
    /// their transaction ids, original or not, or their `appTransactionId`).
    ///
    /// One item per subscription group the customer subscribed in, each listing each of
    /// the chains of the customer's Apple account (the devices signed in to it) with its
    /// latest transaction, in the order the chains began: active (1), expired (2), billing
    /// retry (3), grace period (4) or revoked (5), as ``EmulatedSubscription`` tells.
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
        let devices = state.deviceIds(ofAccount: state.device(customer.deviceId).appleAccount)
        var groups: [String] = []
        var items: [String: [LastTransactionsItem]] = [:]
        for chain in state.subscriptionOrder.compactMap({ state.subscriptions[$0] })
        where chain.environment == environment && devices.contains(chain.deviceId) {
            guard let latest = state.transactions[chain.latestTransactionId],
                let group = latest.subscriptionGroupIdentifier
            else { continue }
            let status = chain.status(latest: latest, at: nowMilliseconds)
            if let statuses, !statuses.isEmpty, !statuses.contains(status) { continue }
            if items[group] == nil { groups.append(group) }
            items[group, default: []].append(
                LastTransactionsItem(
                    status: status,
                    originalTransactionId: chain.originalTransactionId,
                    signedTransactionInfo: try signedTransaction(latest),
                    signedRenewalInfo: try signedRenewalInfo(latest, at: now)
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
