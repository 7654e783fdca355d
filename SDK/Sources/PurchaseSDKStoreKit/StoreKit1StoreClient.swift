import Foundation
import PurchaseSDK
import StoreKit

/// A ``StoreClient`` on StoreKit 1 (`SKPaymentQueue`, `SKProductsRequest`, the app
/// receipt), for systems without StoreKit 2 and games that ship StoreKit 1.
///
/// Its observer joins the default payment queue when the client is created (create it at
/// launch, before the pipeline starts) and leaves when the client is released. Every
/// payment carries the order's token as `applicationUsername`; transactions are reported
/// with the app receipt (the pipeline sends the receipt with the order and the transaction
/// id) and finished only when the pipeline says so, after the server's answer. Promoted
/// purchases are held (`shouldAddStorePayment` answers `false`) and handed to the
/// pipeline, which buys them once a player is signed in.
public final class StoreKit1StoreClient: StoreClient {
    /// `SKPaymentQueue.default()` when the client was created.
    private let queue: SKPaymentQueue
    private let observer: PaymentQueueObserver
    /// How long ``finish(transactionId:)`` waits for the queue to show a transaction it
    /// has not shown yet.
    private let finishWait: Duration

    /// Creates the client and adds its observer to `SKPaymentQueue.default()`.
    ///
    /// - Parameter finishWait: How long finishing a transaction the queue has not shown yet
    ///   waits for it (the queue shows a launch's unfinished transactions within its first
    ///   polls).
    public init(finishWait: Duration = .seconds(3)) {
        self.finishWait = finishWait
        queue = SKPaymentQueue.default()
        observer = PaymentQueueObserver(queue: queue)
        queue.add(observer)
    }

    deinit {
        queue.remove(observer)
    }

    public func products(ids: [String]) async throws -> [StoreProduct] {
        try await ProductsLoader.load(ids)
    }

    public func purchase(productId: String, appAccountToken: String, quantity: Int) async throws
        -> StorePurchaseResult
    {
        try await observer.purchase(productId: productId, appAccountToken: appAccountToken, quantity: quantity)
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
        observer.transactionUpdates()
    }

    /// The purchased transactions the observer was shown and the payment queue still holds
    /// (`SKPaymentQueue.transactions`), not finished.
    public func unfinishedTransactions() async throws -> [StoreTransaction] {
        let queue = queue
        let queued = await MainActor.run {
            queue.transactions.filter { $0.transactionState == .purchased }
                .map(PaymentQueueObserver.storeTransaction)
        }
        var seen = Set<String>()
        return (observer.unfinishedTransactions() + queued).filter { seen.insert($0.transactionId).inserted }
    }

    /// `restoreCompletedTransactions()`: the account's non-consumables and subscriptions,
    /// as restored transactions (finished once collected, as StoreKit asks).
    public func currentTransactions() async throws -> [StoreTransaction] {
        try await observer.restore()
    }

    /// Finishes the transaction the observer was shown, or else the one the payment queue
    /// holds, or else the one the queue shows within ``finishWait`` (just after a launch the
    /// queue has not polled yet), and returns once the queue removed it (the App Store heard
    /// of the finish) or ``finishWait`` passed. One that never comes was finished already:
    /// StoreKit shows every unfinished transaction to the observers it has.
    public func finish(transactionId: String) async throws {
        observer.expectRemoval(of: transactionId)
        var finishing = observer.finish(transactionId: transactionId)
        if !finishing {
            let queue = queue
            finishing = await MainActor.run {
                let held = queue.transactions.filter {
                    $0.transactionIdentifier == transactionId && $0.transactionState == .purchased
                }
                for transaction in held { queue.finishTransaction(transaction) }
                return !held.isEmpty
            }
        }
        if !finishing {
            finishing = await observer.finishWhenShown(transactionId: transactionId, timeout: finishWait)
        }
        if finishing {
            await observer.waitForRemoval(of: transactionId, timeout: finishWait)
        } else {
            observer.forgetRemoval(of: transactionId)
        }
    }

    /// The app receipt; `refresh`, or a missing receipt, asks for a new one with
    /// `SKReceiptRefreshRequest`.
    public func receipt(refresh: Bool) async throws -> String? {
        if !refresh, let receipt = AppReceipt.read() { return receipt }
        try await ReceiptRefresher.refresh()
        return AppReceipt.read()
    }

    public func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        observer.promotedPurchases()
    }
}
