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
    /// The positions in ``transactionOrder`` of the transactions each device's app receipt
    /// lists (all but finished consumables), ascending: a receipt is built from these
    /// instead of from the device's whole history.
    private var receiptPositionsByDevice: [String: [Int]] = [:]
    /// Each transaction's position in ``transactionOrder``.
    private var orderPositions: [String: Int] = [:]
    var pendingPurchases: [String: PendingPurchase] = [:]
    /// Promoted purchases no app has taken yet, by `promotionId`.
    var promotions: [String: EmulatedPromotion] = [:]
    /// Promotion ids in the order they were made.
    var promotionOrder: [String] = []
    /// Auto-renewable subscription chains by `originalTransactionId`.
    var subscriptions: [String: EmulatedSubscription] = [:]
    /// Chain keys in the order their first transaction was made.
    var subscriptionOrder: [String] = []
    var notifications: [String: EmulatedNotification] = [:]
    /// Notification UUIDs in the order they were issued.
    var notificationOrder: [String] = []
    /// The accounts' app download transactions by `appTransactionId`, derived from the
    /// transactions.
    var appTransactions: [String: EmulatedAppTransaction] = [:]
    /// The `appTransactionId` of each account (device and environment) that bought.
    private var appTransactionIds: [Account: String] = [:]

    /// An Apple account: a device in one environment.
    private struct Account: Hashable {
        var deviceId: String
        var environment: AppStoreEnvironment
    }

    /// Applies one journal record.
    mutating func apply(_ record: EmulatorRecord) {
        switch record {
        case .device(let device):
            devices[device.deviceId] = device
        case .transaction(var transaction):
            upgrade(&transaction)
            if transactions.updateValue(transaction, forKey: transaction.transactionId) == nil {
                orderPositions[transaction.transactionId] = transactionOrder.count
                transactionOrder.append(transaction.transactionId)
                transactionsByDevice[transaction.deviceId, default: []].append(transaction.transactionId)
            }
            track(transaction)
            trackReceipt(transaction)
            noteAppTransaction(of: transaction)
            // A journal written before chains were kept has none: each subscription is then
            // its one transaction, renewing while its period lasts and expired once it ended
            // (the emulator that wrote it never renewed). A newer journal's subscription
            // record, which follows, replaces this.
            if transaction.type == .autoRenewable, subscriptions[transaction.originalTransactionId] == nil {
                var chain = EmulatedSubscription(first: transaction)
                if let expiresDate = transaction.expiresDate, expiresDate <= Int64(Date().timeIntervalSince1970 * 1000)
                {
                    chain.ended = true
                    chain.autoRenewEnabled = false
                }
                subscriptions[transaction.originalTransactionId] = chain
                subscriptionOrder.append(transaction.originalTransactionId)
            }
        case .subscription(let subscription):
            if subscriptions.updateValue(subscription, forKey: subscription.originalTransactionId) == nil {
                subscriptionOrder.append(subscription.originalTransactionId)
            }
        case .pendingPurchase(let pending):
            pendingPurchases[pending.pendingId] = pending
        case .pendingResolved(let pendingId):
            pendingPurchases[pendingId] = nil
        case .promotion(let promotion):
            if promotions.updateValue(promotion, forKey: promotion.promotionId) == nil {
                promotionOrder.append(promotion.promotionId)
            }
        case .promotionTaken(let promotionId):
            promotions[promotionId] = nil
            promotionOrder.removeAll { $0 == promotionId }
        case .notification(let notification):
            if notifications.updateValue(notification, forKey: notification.notificationUUID) == nil {
                notificationOrder.append(notification.notificationUUID)
            }
        case .notificationAttempt(let notificationUUID, let attempt):
            notifications[notificationUUID]?.attempts.append(attempt)
        }
    }

    /// Brings a transaction from a journal an older emulator wrote up to date: the app
    /// transaction id Apple now signs every transaction with, and the type and share of a
    /// refund made before refunds could be partial (all of it).
    private func upgrade(_ transaction: inout EmulatedTransaction) {
        if transaction.appTransactionId == nil {
            transaction.appTransactionId = appTransactionId(
                deviceId: transaction.deviceId, environment: transaction.environment)
        }
        if transaction.refundState == .refunded, transaction.revocationType == nil {
            transaction.revocationType = .refundFull
            transaction.revocationPercentage = Milliunits.whole
        }
    }

    /// Records the app transaction a transaction belongs to, from its first purchase on.
    private mutating func noteAppTransaction(of transaction: EmulatedTransaction) {
        guard let id = transaction.appTransactionId else { return }
        if var known = appTransactions[id] {
            known.originalPurchaseDate = min(known.originalPurchaseDate, transaction.purchaseDate)
            appTransactions[id] = known
            return
        }
        appTransactions[id] = EmulatedAppTransaction(
            appTransactionId: id, deviceId: transaction.deviceId, environment: transaction.environment,
            originalPurchaseDate: transaction.purchaseDate)
        appTransactionIds[Account(deviceId: transaction.deviceId, environment: transaction.environment)] = id
    }

    /// The account's app transaction id: the one it has, or the next to mint for its first
    /// purchase.
    func appTransactionId(deviceId: String, environment: AppStoreEnvironment) -> String {
        appTransactionIds[Account(deviceId: deviceId, environment: environment)]
            ?? EmulatedAppTransaction.appTransactionId(number: appTransactions.count + 1)
    }

    /// The app transaction of the customer an id belongs to: a transaction id (original or
    /// not) or an app transaction id, in `environment`; `nil` when none is known there.
    func appTransaction(ofAnyTransactionId id: String, in environment: AppStoreEnvironment)
        -> EmulatedAppTransaction?
    {
        guard let appTransaction = appTransactions[transactions[id]?.appTransactionId ?? id],
            appTransaction.environment == environment
        else { return nil }
        return appTransaction
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

    /// Keeps ``receiptPositionsByDevice`` in step with one transaction's new version.
    private mutating func trackReceipt(_ transaction: EmulatedTransaction) {
        guard let position = orderPositions[transaction.transactionId] else { return }
        let listed = transaction.type != .consumable || !transaction.finished
        var positions = receiptPositionsByDevice[transaction.deviceId] ?? []
        // The first index not below `position` (positions are ascending).
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        let present = low < positions.count && positions[low] == position
        switch (listed, present) {
        case (true, false): positions.insert(position, at: low)
        case (false, true): positions.remove(at: low)
        case (true, true), (false, false): return
        }
        receiptPositionsByDevice[transaction.deviceId] = positions.isEmpty ? nil : positions
    }

    /// The records that rebuild this state, oldest first.
    var records: [EmulatorRecord] {
        devices.values.sorted { $0.deviceId < $1.deviceId }.map(EmulatorRecord.device)
            + transactionOrder.compactMap { transactions[$0] }.map(EmulatorRecord.transaction)
            + subscriptionOrder.compactMap { subscriptions[$0] }.map(EmulatorRecord.subscription)
            + pendingPurchases.values.sorted { $0.pendingId < $1.pendingId }.map(EmulatorRecord.pendingPurchase)
            + notificationOrder.compactMap { notifications[$0] }.map(EmulatorRecord.notification)
            + promotionOrder.compactMap { promotions[$0] }.map(EmulatorRecord.promotion)
    }

    /// The device, created with defaults on first use.
    func device(_ deviceId: String) -> EmulatedDevice {
        devices[deviceId] ?? EmulatedDevice(deviceId: deviceId)
    }

    /// The devices signed in to `appleAccount` (a device never configured is its own account).
    func deviceIds(ofAccount appleAccount: String) -> Set<String> {
        var ids = Set(devices.values.filter { $0.appleAccount == appleAccount }.map(\.deviceId))
        if devices[appleAccount] == nil { ids.insert(appleAccount) }
        return ids
    }

    /// The transactions the device's app receipt lists in one environment, in purchase
    /// order: every one of the device but the consumables the app finished, and every
    /// non-consumable and subscription the Apple account bought on its other devices (as
    /// a receipt refreshed or restored on a new device lists them).
    func receiptTransactions(of deviceId: String, in environment: AppStoreEnvironment) -> [EmulatedTransaction] {
        var positions = receiptPositionsByDevice[deviceId] ?? []
        for other in deviceIds(ofAccount: device(deviceId).appleAccount) where other != deviceId {
            positions += (receiptPositionsByDevice[other] ?? []).filter {
                transactions[transactionOrder[$0]]?.type != .consumable
            }
        }
        return positions.sorted().compactMap { transactions[transactionOrder[$0]] }.filter {
            $0.environment == environment
        }
    }

    /// The device's transactions in one environment, in purchase order.
    func transactions(of deviceId: String, in environment: AppStoreEnvironment) -> [EmulatedTransaction] {
        (transactionsByDevice[deviceId] ?? []).compactMap { transactions[$0] }.filter { $0.environment == environment }
    }
}
