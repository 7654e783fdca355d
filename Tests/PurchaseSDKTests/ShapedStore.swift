import PurchaseSDK

/// A phone's store answering as `base`, except that it may keep its transaction updates
/// from the app (StoreKit has not told the app of a new transaction yet) and list more
/// current transactions than the account has (a store that would restore a consumable).
struct ShapedStore: StoreClient {
    let base: any StoreClient
    var sendsUpdates = true
    var alsoCurrent: [StoreTransaction] = []

    func products(ids: [String]) async throws -> [StoreProduct] {
        try await base.products(ids: ids)
    }

    func purchase(productId: String, appAccountToken: String, quantity: Int) async throws -> StorePurchaseResult {
        try await base.purchase(productId: productId, appAccountToken: appAccountToken, quantity: quantity)
    }

    func transactionUpdates() -> AsyncStream<StoreTransaction> {
        sendsUpdates ? base.transactionUpdates() : AsyncStream { $0.finish() }
    }

    func unfinishedTransactions() async throws -> [StoreTransaction] {
        try await base.unfinishedTransactions()
    }

    func currentTransactions() async throws -> [StoreTransaction] {
        try await base.currentTransactions() + alsoCurrent
    }

    func finish(transactionId: String) async throws {
        try await base.finish(transactionId: transactionId)
    }

    func receipt(refresh: Bool) async throws -> String? {
        try await base.receipt(refresh: refresh)
    }

    func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        base.promotedPurchases()
    }
}
