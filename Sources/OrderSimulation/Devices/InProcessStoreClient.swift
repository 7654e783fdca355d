import AppStoreEmulator
import Foundation
import PurchaseSDK
import PurchaseSDKEmulator

/// A phone's StoreKit backed by the emulator actor itself, without HTTP: the simulation's
/// devices keep buying while the purchase server restarts, as real phones keep talking to
/// Apple while a game's backend is down. The app receipt is signed when the app reads it
/// (``receipt(refresh:)``), not with every charge.
struct InProcessStoreClient: StoreClient {
    /// How the phone's StoreKit shows transactions.
    enum Generation: String, Sendable {
        /// StoreKit 2: signed transactions carrying the order's token.
        case storeKit2
        /// StoreKit 1: no signature and no token on the transaction; the app reports the receipt.
        case storeKit1
    }

    let emulator: AppStoreEmulator
    let deviceId: String
    let generation: Generation
    let promotions: PromotionBroadcaster
    let pollInterval: Duration

    func products(ids: [String]) async throws -> [StoreProduct] {
        emulator.products.filter { ids.contains($0.productId) }.map {
            StoreProduct(
                productId: $0.productId, displayName: $0.displayName ?? $0.productId, priceMilliunits: $0.price,
                currency: $0.currency)
        }
    }

    func purchase(productId: String, appAccountToken: String, quantity: Int) async throws -> StorePurchaseResult {
        let result = try await emulator.purchase(
            deviceId: deviceId,
            PurchaseRequest(productId: productId, appAccountToken: appAccountToken, quantity: quantity),
            includesReceipt: false)
        guard result.outcome == "purchased" else { return .pending }
        guard let transactionId = result.transactionId, let signed = result.signedTransaction else {
            throw SimulationError("the emulator charged without a transaction")
        }
        return .purchased(
            shown(
                transactionId: transactionId, productId: productId, appAccountToken: appAccountToken, signed: signed,
                appTransactionId: result.appTransactionId))
    }

    func transactionUpdates() -> AsyncStream<StoreTransaction> {
        UnfinishedTransactionPoller.updates(every: pollInterval) { try await unfinishedTransactions() }
    }

    func unfinishedTransactions() async throws -> [StoreTransaction] {
        try await emulator.unfinishedTransactions(deviceId: deviceId).map {
            shown(
                transactionId: $0.transactionId, productId: $0.productId, appAccountToken: $0.appAccountToken,
                signed: $0.signedTransaction, appTransactionId: $0.appTransactionId)
        }
    }

    /// The Apple account's current transactions (the emulator's restore), shown like
    /// unfinished ones.
    func currentTransactions() async throws -> [StoreTransaction] {
        try await emulator.restore(deviceId: deviceId).map {
            shown(
                transactionId: $0.transactionId, productId: $0.productId, appAccountToken: $0.appAccountToken,
                signed: $0.signedTransaction, appTransactionId: $0.appTransactionId)
        }
    }

    func finish(transactionId: String) async throws {
        try await emulator.finishTransaction(deviceId: deviceId, transactionId: transactionId)
    }

    func receipt(refresh: Bool) async throws -> String? {
        try await emulator.receipt(deviceId: deviceId)
    }

    func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        promotions.subscribe()
    }

    /// The transaction as this phone's StoreKit generation shows it; StoreKit 2 with the
    /// app transaction id the emulator signed into it (given, so it is not decoded again).
    private func shown(
        transactionId: String, productId: String, appAccountToken: String?, signed: String, appTransactionId: String?
    ) -> StoreTransaction {
        switch generation {
        case .storeKit2:
            StoreTransaction(
                transactionId: transactionId, productId: productId, appAccountToken: appAccountToken,
                signedTransaction: signed, appTransactionId: appTransactionId)
        case .storeKit1:
            StoreTransaction(
                transactionId: transactionId, productId: productId, appAccountToken: nil, signedTransaction: nil)
        }
    }
}
