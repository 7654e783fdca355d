import Foundation
import PurchaseSDK
import StoreKit

/// The StoreKit 1 client's `SKPaymentTransactionObserver`: it turns the payment queue's
/// callbacks into answers to purchase and restore calls, transaction updates and promoted
/// purchases.
///
/// `@unchecked Sendable` is safe: every stored property but `lock` is read and written only
/// while `lock` is held; the `SKPaymentTransaction`s it keeps are only read (their
/// identifiers and payments) and handed back to `SKPaymentQueue.finishTransaction(_:)`,
/// which mutates them on the main queue.
final class PaymentQueueObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    /// The queue the client observes: payments, restores and finishes go to it.
    private let queue: SKPaymentQueue
    private let lock = NSLock()
    /// Purchase calls waiting for their transaction, by the order's token.
    private var purchases: [String: CheckedContinuation<StorePurchaseResult, any Error>] = [:]
    /// Restore calls waiting for the queue's restore to end, and what it restored so far.
    private var restores: [CheckedContinuation<[StoreTransaction], any Error>] = []
    private var restored: [SKPaymentTransaction] = []
    /// Purchased transactions not finished yet, by transaction id.
    private var unfinished: [String: SKPaymentTransaction] = [:]
    /// `finish` calls waiting for the queue to show a transaction, by transaction id.
    private var awaited: [String: [CheckedContinuation<Bool, Never>]] = [:]
    /// Finishes expected to end in `paymentQueue(_:removedTransactions:)`, by transaction
    /// id: whether the queue removed it already.
    private var removals: [String: Bool] = [:]
    /// `finish` calls waiting for the queue to remove a transaction, by transaction id.
    private var removalWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var updates: [UUID: AsyncStream<StoreTransaction>.Continuation] = [:]
    private var promotions: [UUID: AsyncStream<PromotedPurchase>.Continuation] = [:]

    init(queue: SKPaymentQueue) {
        self.queue = queue
    }

    // MARK: Calls from the client

    /// Adds a payment for `productId` bound to the order by `applicationUsername` and waits
    /// for the queue's answer.
    func purchase(productId: String, appAccountToken: String, quantity: Int) async throws -> StorePurchaseResult {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock { purchases[appAccountToken] = continuation }
            let payment = SKMutablePayment()
            payment.productIdentifier = productId
            payment.quantity = quantity
            payment.applicationUsername = appAccountToken
            queue.add(payment)
        }
    }

    /// Restores the account's completed transactions and waits for the queue to end.
    func restore() async throws -> [StoreTransaction] {
        try await withCheckedThrowingContinuation { continuation in
            let first = lock.withLock {
                restores.append(continuation)
                return restores.count == 1
            }
            if first { queue.restoreCompletedTransactions() }
        }
    }

    /// The purchased transactions the queue showed and nobody finished.
    func unfinishedTransactions() -> [StoreTransaction] {
        lock.withLock { unfinished.values.map(Self.storeTransaction) }.sorted { $0.transactionId < $1.transactionId }
    }

    /// Finishes the transaction, if the queue showed it; `false` otherwise.
    func finish(transactionId: String) -> Bool {
        guard let transaction = lock.withLock({ unfinished.removeValue(forKey: transactionId) }) else { return false }
        queue.finishTransaction(transaction)
        return true
    }

    /// Finishes the transaction once the queue shows it, waiting at most `timeout`: after a
    /// launch the queue shows the unfinished transactions within its first polls. `false`
    /// when it did not come (finished already: StoreKit never shows a finished one again).
    func finishWhenShown(transactionId: String, timeout: Duration) async -> Bool {
        let shown = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let already = lock.withLock {
                guard unfinished[transactionId] == nil else { return true }
                awaited[transactionId, default: []].append(continuation)
                return false
            }
            if already {
                continuation.resume(returning: true)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.resumeAwaiting(transactionId, shown: false)
            }
        }
        return shown && finish(transactionId: transactionId)
    }

    private func resumeAwaiting(_ transactionId: String, shown: Bool) {
        for waiter in lock.withLock({ awaited.removeValue(forKey: transactionId) ?? [] }) {
            waiter.resume(returning: shown)
        }
    }

    /// Notes that a finish of `transactionId` is about to be asked, so that its removal is
    /// caught even if it comes before ``waitForRemoval(of:timeout:)``.
    func expectRemoval(of transactionId: String) {
        lock.withLock { removals[transactionId] = false }
    }

    /// Forgets an expected removal (nothing was finished).
    func forgetRemoval(of transactionId: String) {
        lock.withLock { removals[transactionId] = nil }
    }

    /// Waits until the queue removed the transaction (the App Store heard of its finish),
    /// at most `timeout`.
    func waitForRemoval(of transactionId: String, timeout: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let removed = lock.withLock {
                guard removals[transactionId] != true else {
                    removals[transactionId] = nil
                    return true
                }
                removalWaiters[transactionId, default: []].append(continuation)
                return false
            }
            if removed {
                continuation.resume()
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                self.resumeRemovalWaiters(transactionId)
            }
        }
    }

    private func resumeRemovalWaiters(_ transactionId: String) {
        let waiters = lock.withLock {
            removals[transactionId] = nil
            return removalWaiters.removeValue(forKey: transactionId) ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Transactions that arrive outside a purchase call, starting with the unfinished ones
    /// the queue already showed.
    func transactionUpdates() -> AsyncStream<StoreTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreTransaction.self)
        let id = UUID()
        let current = lock.withLock {
            updates[id] = continuation
            return unfinished.values.map(Self.storeTransaction)
        }
        for transaction in current { continuation.yield(transaction) }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.updates.removeValue(forKey: id) }
        }
        return stream
    }

    /// Products the customer chose on the App Store.
    func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        let (stream, continuation) = AsyncStream.makeStream(of: PromotedPurchase.self)
        let id = UUID()
        lock.withLock { promotions[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.promotions.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: SKPaymentTransactionObserver

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            let token = transaction.payment.applicationUsername?.lowercased()
            switch transaction.transactionState {
            case .purchased:
                guard let id = transaction.transactionIdentifier else { continue }
                let value = Self.storeTransaction(transaction)
                let waiter = lock.withLock {
                    unfinished[id] = transaction
                    return token.flatMap { purchases.removeValue(forKey: $0) }
                }
                resumeAwaiting(id, shown: true)
                if let waiter {
                    waiter.resume(returning: .purchased(value))
                } else {
                    for continuation in lock.withLock({ Array(updates.values) }) { continuation.yield(value) }
                }
            case .deferred:
                token.flatMap { token in lock.withLock { purchases.removeValue(forKey: token) } }?
                    .resume(returning: .pending)
            case .failed:
                queue.finishTransaction(transaction)
                guard let waiter = token.flatMap({ token in lock.withLock { purchases.removeValue(forKey: token) } })
                else { continue }
                if let error = transaction.error as? SKError, error.code == .paymentCancelled {
                    waiter.resume(returning: .userCancelled)
                } else {
                    waiter.resume(throwing: transaction.error ?? SKError(.unknown))
                }
            case .restored:
                lock.withLock { restored.append(transaction) }
            case .purchasing:
                continue
            @unknown default:
                continue
            }
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        for id in transactions.compactMap(\.transactionIdentifier) {
            let waiting = lock.withLock { () -> Bool in
                guard removals[id] != nil else { return false }
                guard removalWaiters[id] != nil else {
                    removals[id] = true
                    return false
                }
                return true
            }
            if waiting { resumeRemovalWaiters(id) }
        }
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        let (waiters, transactions) = takeRestores()
        // A restored transaction only tells the app what the account owns: the original's
        // purchase is delivered through its own transaction. StoreKit asks for it to be
        // finished, which the emulator ignores for what it already finished.
        for transaction in transactions { queue.finishTransaction(transaction) }
        let values = transactions.map(Self.storeTransaction)
        for waiter in waiters { waiter.resume(returning: values) }
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        let (waiters, transactions) = takeRestores()
        for transaction in transactions { queue.finishTransaction(transaction) }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    /// A promoted purchase is held (`false`): the pipeline buys it once a player is signed
    /// in, through its own payment bound to an order.
    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    {
        let promotion = PromotedPurchase(productId: product.productIdentifier)
        for continuation in lock.withLock({ Array(promotions.values) }) { continuation.yield(promotion) }
        return false
    }

    private func takeRestores() -> ([CheckedContinuation<[StoreTransaction], any Error>], [SKPaymentTransaction]) {
        lock.withLock {
            defer {
                restores = []
                restored = []
            }
            return (restores, restored)
        }
    }

    /// The transaction as the pipeline sees it: no signed transaction (StoreKit 1 reports the
    /// receipt), the order's token from `applicationUsername`.
    static func storeTransaction(_ transaction: SKPaymentTransaction) -> StoreTransaction {
        StoreTransaction(
            transactionId: transaction.transactionIdentifier ?? "",
            productId: transaction.payment.productIdentifier,
            appAccountToken: transaction.payment.applicationUsername.flatMap(UUID.init(uuidString:))?.uuidString
                .lowercased(),
            signedTransaction: nil)
    }
}
