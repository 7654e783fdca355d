import AppStoreModel
import Foundation

/// The changes a chain goes through, each as Apple makes it.
extension EmulatedSubscription {
    /// A (re)subscription: `transaction` starts a new run of service with renewal on.
    mutating func restart(with transaction: EmulatedTransaction, at now: Int64) {
        deviceId = transaction.deviceId
        productId = transaction.productId
        autoRenewProductId = transaction.productId
        autoRenewEnabled = true
        billing = .ok
        gracePeriodExpiresDate = nil
        expirationIntent = nil
        ended = false
        latestTransactionId = transaction.transactionId
        recentSubscriptionStartDate = now
    }

    /// A renewal, recovery or upgrade: `transaction` backs the chain now.
    mutating func advance(to transaction: EmulatedTransaction) {
        productId = transaction.productId
        billing = .ok
        gracePeriodExpiresDate = nil
        expirationIntent = nil
        latestTransactionId = transaction.transactionId
    }
}
