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
    private let observer = PaymentQueueObserver()

    /// Creates the client and adds its observer to `SKPaymentQueue.default()`.
    public init() {
        SKPaymentQueue.default().add(observer)
    }

    deinit {
        SKPaymentQueue.default().remove(observer)
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

    public func unfinishedTransactions() async throws -> [StoreTransaction] {
        observer.unfinishedTransactions()
    }

    /// `restoreCompletedTransactions()`: the account's non-consumables and subscriptions,
    /// as restored transactions (finished once collected, as StoreKit asks).
    public func currentTransactions() async throws -> [StoreTransaction] {
        try await observer.restore()
    }

    /// Finishes the transaction the queue showed. One this process's queue has not shown
    /// yet (just after a launch) is finished when the pipeline is given it again.
    public func finish(transactionId: String) async throws {
        _ = observer.finish(transactionId: transactionId)
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
