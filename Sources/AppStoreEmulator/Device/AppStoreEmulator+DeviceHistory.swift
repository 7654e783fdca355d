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
        let id = state.appTransactionId(deviceId: deviceId, environment: device.environment)
        guard state.appTransactions[id] != nil else {
            return StatusResponse(
                environment: device.environment, bundleId: configuration.bundleId,
                appAppleId: configuration.appAppleId, data: [])
        }
        return try subscriptionStatuses(id, environment: device.environment)
    }
}
