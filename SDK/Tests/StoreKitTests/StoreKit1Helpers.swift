import Foundation
import StoreKit

/// A payment queue observer that records what it is told, and on which thread.
///
/// `@unchecked Sendable`: its stored properties are read and written only while `lock` is held.
final class Observer: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var updated: [SKPaymentTransaction] = []
    private var removedIds: [String] = []
    private var offMain = false
    /// Set on the main queue by the test: observers must be called on it.
    static let mainQueueKey = DispatchSpecificKey<Bool>()
    private var finished = false

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        let snapshots = transactions.map { Snapshot($0) }
        locked {
            offMain = offMain || DispatchQueue.getSpecific(key: Self.mainQueueKey) != true
            updated += snapshots.map(\.transaction)
            states += snapshots.map { ($0.transaction.payment.productIdentifier, $0.state) }
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        locked { removedIds += transactions.compactMap(\.transactionIdentifier) }
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        locked { finished = true }
    }

    private var states: [(String, SKPaymentTransactionState)] = []

    func states(of productId: String) -> [SKPaymentTransactionState] {
        locked { states.filter { $0.0 == productId }.map(\.1) }
    }

    var transactions: [SKPaymentTransaction] { locked { updated } }
    var removed: [String] { locked { removedIds } }
    var restoreFinished: Bool { locked { finished } }
    var allOnMainQueue: Bool { locked { !offMain } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private struct Snapshot {
        let transaction: SKPaymentTransaction
        let state: SKPaymentTransactionState
        init(_ transaction: SKPaymentTransaction) {
            self.transaction = transaction
            state = transaction.transactionState
        }
    }
}

/// A products request delegate that records the response.
///
/// `@unchecked Sendable`: its stored properties are read and written only while `lock` is held.
final class ProductsDelegate: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var received: SKProductsResponse?
    private var done = false

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        lock.lock()
        received = response
        lock.unlock()
    }

    func requestDidFinish(_ request: SKRequest) {
        lock.lock()
        done = true
        lock.unlock()
    }

    var response: SKProductsResponse? {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    var finished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return done
    }
}
