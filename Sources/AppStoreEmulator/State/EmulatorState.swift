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
    /// The ids of each device's unfinished, unrevoked transactions, in the order they
    /// became so: what a device's poll reads, without walking its whole history.
    var unfinishedByDevice: [String: [String]] = [:]
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
            track(transaction)
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

    /// Keeps ``unfinishedByDevice`` in step with one transaction's new version.
    private mutating func track(_ transaction: EmulatedTransaction) {
        let id = transaction.transactionId
        var unfinished = unfinishedByDevice[transaction.deviceId] ?? []
        let index = unfinished.firstIndex(of: id)
        switch (transaction.finished || transaction.isRevoked, index) {
        case (false, nil): unfinished.append(id)
        case (true, let index?): unfinished.remove(at: index)
        case (false, _?), (true, nil): return
        }
        unfinishedByDevice[transaction.deviceId] = unfinished.isEmpty ? nil : unfinished
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
