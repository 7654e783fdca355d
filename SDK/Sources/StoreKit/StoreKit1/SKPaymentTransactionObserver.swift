import Foundation

/// A set of methods that process transactions, unlock purchased functionality, and
/// continue promoted In-App Purchases.
///
/// Apple: `protocol SKPaymentTransactionObserver : NSObjectProtocol`
/// (https://developer.apple.com/documentation/storekit/skpaymenttransactionobserver).
/// Apple's optional requirements have default implementations here (Linux has no
/// `@objc optional`). The queue calls observers on the main queue.
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    /// Tells an observer that one or more transactions have been updated.
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
    /// Tells an observer that one or more transactions have been removed from the queue.
    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction])
    /// Tells the observer that an error occurred while restoring transactions.
    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
    /// Tells the observer that the payment queue has finished sending restored transactions.
    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
    /// Tells the observer that a user initiated an in-app purchase from the App Store.
    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    /// Tells the observer that the storefront for the payment queue has changed.
    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue)
    /// Tells the observer that the user is no longer entitled to one or more family-shared purchases.
    func paymentQueue(
        _ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
}

extension SKPaymentTransactionObserver {
    public func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {}
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {}
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}
    public func paymentQueue(
        _ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct
    ) -> Bool { true }
    public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {}
    public func paymentQueue(
        _ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]
    ) {}
}
