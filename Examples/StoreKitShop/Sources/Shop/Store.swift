import Foundation
import StoreKit

/// What ``Store/purchase(_:)`` ended in.
public enum PurchaseOutcome: Equatable, Sendable {
    /// Charged, verified, delivered and finished.
    case purchased(transactionID: UInt64)
    /// Waiting (Ask to Buy, or a purchase the App Store interrupted): the transaction comes
    /// later through `Transaction.updates`, if it is approved.
    case pending
    /// The player cancelled.
    case cancelled
}

/// Why the store refused a transaction.
public enum StoreError: Error, Equatable {
    /// The App Store's signature did not verify: nothing is delivered.
    case failedVerification(productID: String)
}

/// The shop over StoreKit 2: products, purchases with the player's account token,
/// verification, delivery, `finish()`, the `Transaction.updates` listener and
/// entitlements.
///
/// Start it at launch (``start()``): transactions that arrive outside a purchase call
/// (Ask to Buy approvals, renewals, refunds, purchases on another device, the ones left
/// unfinished last time) come through `Transaction.updates`.
@MainActor
public final class Store {
    /// The player's account token, sent with every purchase (`appAccountToken`).
    public let accountToken: UUID
    /// The products on sale, cheapest first (after ``loadProducts()``).
    public private(set) var products: [Product] = []
    /// The player's gems.
    public private(set) var gems = 0
    /// The products the player is entitled to now: non-consumables and active subscriptions.
    public private(set) var entitledProductIDs: Set<String> = []
    /// The transaction behind each entitlement (a subscription's latest renewal).
    public private(set) var entitlementTransactionIDs: [String: UInt64] = [:]

    private var credited: Set<UInt64> = []
    private var listener: Task<Void, Never>?
    private let broadcaster = ChangeBroadcaster()

    /// A store for the player whose account token is `accountToken`.
    public init(accountToken: UUID = UUID()) {
        self.accountToken = accountToken
    }

    /// Whether the player subscribes to the club now.
    public var isClubMember: Bool { entitledProductIDs.contains(ShopProduct.clubMonthly) }

    /// Whether the player owns Shop Pro.
    public var ownsPro: Bool { entitledProductIDs.contains(ShopProduct.pro) }

    /// A stream of the changes the store makes from now on.
    public func changes() -> AsyncStream<ShopChange> {
        broadcaster.stream()
    }

    /// Starts listening to `Transaction.updates`, as an app does at launch.
    public func start() {
        guard listener == nil else { return }
        listener = Task { [weak self] in
            for await result in Transaction.updates {
                guard let self else { return }
                await self.handle(result)
            }
        }
    }

    /// Stops listening.
    public func stop() {
        listener?.cancel()
        listener = nil
        broadcaster.finish()
    }

    /// Loads the shop's products from the App Store.
    public func loadProducts() async throws {
        products = try await Product.products(for: ShopProduct.all).sorted { $0.price < $1.price }
    }

    /// The loaded product `id`, if the App Store sells it.
    public func product(_ id: String) -> Product? {
        products.first { $0.id == id }
    }

    /// Buys `product` for the player: a verified transaction is delivered, then finished.
    ///
    /// - Throws: ``StoreError/failedVerification(productID:)`` when the App Store's
    ///   signature does not verify (nothing is delivered); StoreKit's errors.
    public func purchase(_ product: Product) async throws -> PurchaseOutcome {
        let result = try await product.purchase(options: [.appAccountToken(accountToken)])
        if case .success(let verification) = result {
            let transaction = try checkVerified(verification)
            await deliver(transaction)
            await transaction.finish()
            return .purchased(transactionID: transaction.id)
        }
        if case .pending = result { return .pending }
        return .cancelled
    }

    /// Reads the player's current entitlements again.
    public func refreshEntitlements() async {
        var entitled: [String: UInt64] = [:]
        for await result in Transaction.currentEntitlements {
            guard case .verified(let transaction) = result, transaction.revocationDate == nil else { continue }
            entitled[transaction.productID] = transaction.id
        }
        entitlementTransactionIDs = entitled
        entitledProductIDs = Set(entitled.keys)
    }

    /// Restores purchases ("Restore Purchases" button): syncs with the App Store, then
    /// reads the entitlements again.
    public func restorePurchases() async throws {
        try await AppStore.sync()
        await refreshEntitlements()
    }

    // MARK: Implementation

    /// A transaction from `Transaction.updates`: delivered and finished when it verifies.
    private func handle(_ result: VerificationResult<Transaction>) async {
        guard case .verified(let transaction) = result else {
            let transaction = result.unsafePayloadValue
            broadcaster.send(.rejected(productID: transaction.productID, transactionID: transaction.id))
            return
        }
        await deliver(transaction)
        await transaction.finish()
    }

    private func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        switch result {
        case .verified(let value):
            return value
        case .unverified(let value, _):
            throw StoreError.failedVerification(productID: (value as? Transaction)?.productID ?? "")
        }
    }

    /// Gives the player what `transaction` bought, once, or takes it back when it was
    /// refunded or revoked.
    private func deliver(_ transaction: Transaction) async {
        let gemsPerUnit = ShopProduct.gems(for: transaction.productID)
        if transaction.revocationDate != nil {
            if credited.remove(transaction.id) != nil {
                gems -= gemsPerUnit * transaction.purchasedQuantity
            }
            await refreshEntitlements()
            broadcaster.send(.revoked(productID: transaction.productID, transactionID: transaction.id))
            return
        }
        if gemsPerUnit > 0, credited.insert(transaction.id).inserted {
            gems += gemsPerUnit * transaction.purchasedQuantity
        }
        await refreshEntitlements()
        broadcaster.send(.delivered(productID: transaction.productID, transactionID: transaction.id))
    }
}
