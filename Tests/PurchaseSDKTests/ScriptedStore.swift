import Foundation
import PurchaseSDK
import Synchronization

/// A store whose transactions the test sets: the account's current ones, the unfinished
/// ones, and whether it answers at all. It sends no updates and no promotions, so an
/// unfinished transaction set after ``PurchasePipeline/start()`` reaches the pipeline only
/// through what it asks itself.
final class ScriptedStore: StoreClient {
    private struct State {
        var current: [StoreTransaction] = []
        var unfinished: [StoreTransaction] = []
        var finished: [String] = []
        var available = true
        var receipt: String?
        var receiptRequests: [Bool] = []
    }

    private let state = Mutex(State())

    /// Sets the account's current transactions and which of them are unfinished.
    func set(current: [StoreTransaction], unfinished: [StoreTransaction]) {
        state.withLock {
            $0.current = current
            $0.unfinished = unfinished
        }
    }

    /// Whether the store answers.
    func setAvailable(_ available: Bool) {
        state.withLock { $0.available = available }
    }

    /// Sets the app receipt the store gives.
    func setReceipt(_ receipt: String?) {
        state.withLock { $0.receipt = receipt }
    }

    /// Each receipt asked for so far: whether a refresh was asked.
    var receiptRequests: [Bool] { state.withLock { $0.receiptRequests } }

    /// The transactions finished so far, in order.
    var finished: [String] { state.withLock { $0.finished } }

    func products(ids: [String]) async throws -> [StoreProduct] { [] }

    func purchase(productId: String, appAccountToken: String, quantity: Int) async throws -> StorePurchaseResult {
        .userCancelled
    }

    func transactionUpdates() -> AsyncStream<StoreTransaction> {
        AsyncStream { $0.finish() }
    }

    func unfinishedTransactions() async throws -> [StoreTransaction] {
        try answering { $0.unfinished }
    }

    func currentTransactions() async throws -> [StoreTransaction] {
        try answering { $0.current }
    }

    func finish(transactionId: String) async throws {
        try answering { state in
            state.unfinished.removeAll { $0.transactionId == transactionId }
            state.finished.append(transactionId)
        }
    }

    func receipt(refresh: Bool) async throws -> String? {
        try answering { state in
            state.receiptRequests.append(refresh)
            return state.receipt
        }
    }

    func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        AsyncStream { $0.finish() }
    }

    private func answering<T>(_ body: (inout State) -> T) throws -> T {
        try state.withLock { state in
            guard state.available else { throw URLError(.notConnectedToInternet) }
            return body(&state)
        }
    }
}
