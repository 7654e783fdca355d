import Foundation
import PurchaseSDK
import StoreKit

/// A ``StoreClient`` on StoreKit 2 (`Product`, `Transaction`, `PurchaseIntent`), with the
/// StoreKit 1 app receipt for the receipt report path. On Linux it runs over StoreKit for
/// Linux (docs/storekit-linux.md).
@available(iOS 15.0, macOS 12.0, *)
public struct StoreKitStoreClient: StoreClient {
    private let transactions = TransactionCache()

    /// Creates the client.
    public init() {}

    public func products(ids: [String]) async throws -> [StoreProduct] {
        try await Product.products(for: ids).map {
            StoreProduct(
                productId: $0.id, displayName: $0.displayName,
                priceMilliunits: Int64(truncating: NSDecimalNumber(decimal: $0.price * 1_000)),
                currency: $0.priceFormatStyle.currencyCode)
        }
    }

    public func purchase(productId: String, appAccountToken: String, quantity: Int) async throws
        -> StorePurchaseResult
    {
        guard let product = try await Product.products(for: [productId]).first else {
            throw StoreKitClientError.unknownProduct(productId)
        }
        var options: Set<Product.PurchaseOption> = [.quantity(quantity)]
        if let token = UUID(uuidString: appAccountToken) { options.insert(.appAccountToken(token)) }
        switch try await product.purchase(options: options) {
        case .success(let verification): return .purchased(await transactions.keep(verification))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        @unknown default: return .userCancelled
        }
    }

    public func transactionUpdates() -> AsyncStream<StoreTransaction> {
        let transactions = transactions
        return AsyncStream { continuation in
            let task = Task {
                // A refund or revocation also comes as an update: it is no purchase to
                // deliver (the server learns of it from Apple's notification).
                for await verification in Transaction.updates
                where verification.unsafePayloadValue.revocationDate == nil {
                    continuation.yield(await transactions.keep(verification))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func unfinishedTransactions() async throws -> [StoreTransaction] {
        var unfinished: [StoreTransaction] = []
        for await verification in Transaction.unfinished {
            unfinished.append(await transactions.keep(verification))
        }
        return unfinished
    }

    /// `Transaction.currentEntitlements`: the latest transaction of each non-consumable,
    /// active subscription and non-renewing subscription the account owns. It does not
    /// sync with the App Store; a Restore Purchases button may call `AppStore.sync()`
    /// first, as Apple advises, for an account whose transactions this device never saw.
    public func currentTransactions() async throws -> [StoreTransaction] {
        var current: [StoreTransaction] = []
        for await verification in Transaction.currentEntitlements {
            current.append(await transactions.keep(verification))
        }
        return current
    }

    public func finish(transactionId: String) async throws {
        if let transaction = await transactions.transaction(id: transactionId) {
            await transaction.finish()
            return
        }
        for await verification in Transaction.unfinished
        where String(verification.unsafePayloadValue.id) == transactionId {
            await verification.unsafePayloadValue.finish()
        }
    }

    /// The StoreKit 1 app receipt; `refresh` syncs with the App Store first (which may
    /// ask the customer to sign in).
    public func receipt(refresh: Bool) async throws -> String? {
        if refresh { try await AppStore.sync() }
        return AppReceipt.read()
    }

    public func promotedPurchases() -> AsyncStream<PromotedPurchase> {
        AsyncStream { continuation in
            guard #available(iOS 16.4, macOS 14.4, *) else {
                continuation.finish()
                return
            }
            let task = Task {
                for await intent in PurchaseIntent.intents {
                    continuation.yield(PromotedPurchase(productId: intent.product.id))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// StoreKit's transactions by id, to finish them later. The server verifies the
/// signature; the client passes the JWS on whether or not StoreKit verified it.
@available(iOS 15.0, macOS 12.0, *)
private actor TransactionCache {
    private var transactions: [String: Transaction] = [:]

    func keep(_ verification: VerificationResult<Transaction>) -> StoreTransaction {
        let transaction = verification.unsafePayloadValue
        let id = String(transaction.id)
        transactions[id] = transaction
        return StoreTransaction(
            transactionId: id, productId: transaction.productID,
            appAccountToken: transaction.appAccountToken?.uuidString.lowercased(),
            signedTransaction: verification.jwsRepresentation)
    }

    func transaction(id: String) -> Transaction? {
        transactions[id]
    }
}

/// StoreKit could not do what was asked.
public enum StoreKitClientError: Error, Hashable, Sendable {
    /// The App Store does not sell this product to this app.
    case unknownProduct(String)
}
