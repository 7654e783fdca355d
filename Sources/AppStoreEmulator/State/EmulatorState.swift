import AppStoreModel
import Foundation

/// Everything the emulated App Store knows, in memory.
struct EmulatorState: Sendable {
    var devices: [String: EmulatedDevice] = [:]
    var transactions: [String: EmulatedTransaction] = [:]
    /// Transaction ids in purchase order.
    var transactionOrder: [String] = []
    /// Transaction ids per device, in purchase order.
    var transactionsByDevice: [String: [String]] = [:]
    var pendingPurchases: [String: PendingPurchase] = [:]
    var notifications: [String: EmulatedNotification] = [:]
    /// Notification UUIDs in the order they were issued.
    var notificationOrder: [String] = []

    /// Applies one journal record.
    mutating func apply(_ record: EmulatorRecord) {
        switch record {
        case .device(let device):
            devices[device.deviceId] = device
        case .transaction(let transaction):
            if transactions.updateValue(transaction, forKey: transaction.transactionId) == nil {
                transactionOrder.append(transaction.transactionId)
                transactionsByDevice[transaction.deviceId, default: []].append(transaction.transactionId)
            }
        case .pendingPurchase(let pending):
            pendingPurchases[pending.pendingId] = pending
        case .pendingResolved(let pendingId):
            pendingPurchases[pendingId] = nil
        case .notification(let notification):
            if notifications.updateValue(notification, forKey: notification.notificationUUID) == nil {
                notificationOrder.append(notification.notificationUUID)
            }
        }
    }

    /// The records that rebuild this state, oldest first.
    var records: [EmulatorRecord] {
        devices.values.sorted { $0.deviceId < $1.deviceId }.map(EmulatorRecord.device)
            + transactionOrder.compactMap { transactions[$0] }.map(EmulatorRecord.transaction)
            + pendingPurchases.values.sorted { $0.pendingId < $1.pendingId }.map(EmulatorRecord.pendingPurchase)
            + notificationOrder.compactMap { notifications[$0] }.map(EmulatorRecord.notification)
    }

    /// The device, created with defaults on first use.
    func device(_ deviceId: String) -> EmulatedDevice {
        devices[deviceId] ?? EmulatedDevice(deviceId: deviceId)
    }

    /// The device's transactions in one environment, in purchase order.
    func transactions(of deviceId: String, in environment: AppStoreEnvironment) -> [EmulatedTransaction] {
        (transactionsByDevice[deviceId] ?? []).compactMap { transactions[$0] }.filter { $0.environment == environment }
    }
}
