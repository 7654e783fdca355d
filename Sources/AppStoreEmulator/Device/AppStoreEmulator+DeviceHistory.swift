import AppStoreModel
import Foundation

/// What StoreKit on a device reads besides its own purchases: every transaction of the
/// device's Apple account (`Transaction.all`, `Transaction.updates`), its app transaction
/// (`AppTransaction.shared`) and its subscription statuses (`Product.SubscriptionInfo.status`).
extension AppStoreEmulator {
    /// Every transaction of the device's Apple account (each device signed in to it) in
    /// the device's environment, in purchase order, signed now: finished or not, refunded
    /// or revoked ones too (their signed forms carry `revocationDate`), renewals included.
    public func allTransactions(deviceId: String) throws -> [DeviceTransaction] {
        let device = state.device(deviceId)
        let devices = state.deviceIds(ofAccount: device.appleAccount)
        return try state.transactionOrder.compactMap { state.transactions[$0] }
            .filter { $0.environment == device.environment && devices.contains($0.deviceId) }
            .map(deviceTransaction)
    }

    /// The device's app transaction in its environment, signed now, as Get App Transaction
    /// Info signs it; `nil` before the account's first purchase (the emulator keeps an app
    /// transaction from then on).
    public func signedAppTransaction(deviceId: String) throws -> String? {
        let device = state.device(deviceId)
        let id = state.appTransactionId(deviceId: deviceId, environment: device.environment)
        guard state.appTransactions[id] != nil else { return nil }
        return try appTransactionInfo(id, environment: device.environment).signedAppTransactionInfo
    }

    /// The subscription statuses of the device's Apple account in its environment, as Get
    /// All Subscription Statuses answers them; no group before the account's first purchase.
    public func subscriptionStatuses(deviceId: String) throws -> StatusResponse {
        let device = state.device(deviceId)
        // Each device of the account may keep an app transaction of its own here; the
        // account's statuses are theirs together, one group each, each chain once.
        var groups: [String: [LastTransactionsItem]] = [:]
        var order: [String] = []
        var known: Set<String> = []
        var chains: Set<String> = []
        for member in state.deviceIds(ofAccount: device.appleAccount).sorted() {
            let id = state.appTransactionId(deviceId: member, environment: device.environment)
            guard state.appTransactions[id] != nil, known.insert(id).inserted else { continue }
            for group in try subscriptionStatuses(id, environment: device.environment).data ?? [] {
                let name = group.subscriptionGroupIdentifier ?? ""
                if groups[name] == nil { order.append(name) }
                // A chain is listed once, whichever device's app transaction finds it.
                groups[name, default: []] += (group.lastTransactions ?? []).filter {
                    chains.insert($0.originalTransactionId ?? "").inserted
                }
            }
        }
        return StatusResponse(
            environment: device.environment, bundleId: configuration.bundleId, appAppleId: configuration.appAppleId,
            data: order.map {
                SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0])
            }
        )
    }
}
