import AppStoreModel
import Foundation

/// Restore: what StoreKit's `Transaction.currentEntitlements` (or `AppStore.sync()`) gives a
/// device signed in to an Apple account.
extension AppStoreEmulator {
    /// The current transaction of everything the device's Apple account owns, in the
    /// device's environment, oldest first: each non-consumable bought or shared with any
    /// device of the account, and the latest transaction of each subscription chain of the
    /// account (even expired). Never consumables or non-renewing subscriptions; never a
    /// refunded or revoked transaction.
    public func restore(deviceId: String) throws -> [DeviceTransaction] {
        let device = state.device(deviceId)
        let devices = state.deviceIds(ofAccount: device.appleAccount)
        var restored: [EmulatedTransaction] = []
        for id in state.transactionOrder {
            guard let transaction = state.transactions[id], transaction.environment == device.environment,
                devices.contains(transaction.deviceId), !transaction.isRevoked
            else { continue }
            switch transaction.type {
            case .nonConsumable:
                restored.append(transaction)
            case .autoRenewable:
                if state.subscriptions[transaction.originalTransactionId]?.latestTransactionId == id {
                    restored.append(transaction)
                }
            default:
                continue
            }
        }
        return try restored.map(deviceTransaction)
    }
}
