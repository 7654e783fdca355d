import Foundation
import StoreKit

/// The shop over StoreKit 1, as apps that still support it write it: an
/// `SKPaymentQueue` observer added at launch, `SKProductsRequest`, payments carrying the
/// player's `applicationUsername`, `finishTransaction(_:)` after delivery, and
/// `restoreCompletedTransactions(withApplicationUsername:)`.
///
/// StoreKit 1 calls its observer and delegates on the main thread, so the store lives on
/// the main actor.
@MainActor
public final class LegacyStore: NSObject {
    /// The player's account identifier, sent with each payment (`applicationUsername`).
    public let applicationUsername: String
    /// The products on sale (after ``loadProducts()``), by identifier.
    public private(set) var products: [String: SKProduct] = [:]
    /// The identifiers the App Store did not recognise in the last products request.
    public private(set) var invalidProductIdentifiers: [String] = []
    /// The player's gems.
    public private(set) var gems = 0
    /// The non-consumables and subscriptions the player bought or restored.
    public private(set) var unlockedProductIDs: Set<String> = []
    /// Every transaction state the queue reported, in order, with its product.
    public private(set) var history: [(productID: String, state: SKPaymentTransactionState)] = []
    /// The transactions restored by the last restore: identifier and original identifier.
    public private(set) var restored: [(transactionID: String, originalID: String?)] = []
    /// The transactions delivered and finished.
    public private(set) var finishedTransactionIDs: [String] = []

    private var productsRequest: SKProductsRequest?
    private var productsContinuation: CheckedContinuation<Void, any Error>?
    private var restoreContinuation: CheckedContinuation<Void, any Error>?
    private var credited: Set<String> = []
    private let broadcaster = ChangeBroadcaster()

    /// A store for the player `applicationUsername` (Apple asks for an opaque value; a
    /// UUID string also reaches the App Store as the transaction's `appAccountToken`).
    public init(applicationUsername: String) {
        self.applicationUsername = applicationUsername
        super.init()
    }

    /// A stream of the changes the store makes from now on.
    public func changes() -> AsyncStream<ShopChange> {
        broadcaster.stream()
    }

    /// Adds the store as the payment queue's observer, as an app does at launch.
    public func start() {
        SKPaymentQueue.default().add(self)
    }

    /// Removes the observer.
    public func stop() {
        SKPaymentQueue.default().remove(self)
        broadcaster.finish()
    }

    /// Whether this device may pay.
    public var canMakePayments: Bool { SKPaymentQueue.canMakePayments() }

    /// Asks the App Store for the shop's products.
    public func loadProducts() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            productsContinuation = continuation
            let request = SKProductsRequest(productIdentifiers: ShopProduct.all)
            request.delegate = self
            productsRequest = request
            request.start()
        }
    }

    /// Adds a payment for `product`; the outcome reaches the observer (``changes()``).
    public func buy(_ product: SKProduct, quantity: Int = 1) {
        let payment = SKMutablePayment(product: product)
        payment.quantity = quantity
        payment.applicationUsername = applicationUsername
        SKPaymentQueue.default().add(payment)
    }

    /// Restores the player's completed purchases; returns when the queue finished.
    public func restorePurchases() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            restoreContinuation = continuation
            SKPaymentQueue.default().restoreCompletedTransactions(withApplicationUsername: applicationUsername)
        }
    }

    // MARK: Implementation

    private func record(_ transaction: SKPaymentTransaction) {
        let productID = transaction.payment.productIdentifier
        history.append((productID, transaction.transactionState))
        switch transaction.transactionState {
        case .purchased, .restored:
            deliver(transaction)
            SKPaymentQueue.default().finishTransaction(transaction)
        case .failed:
            SKPaymentQueue.default().finishTransaction(transaction)
        case .deferred:
            broadcaster.send(.waiting(productID: productID))  // Ask to Buy: the next update tells
        default:
            break  // .purchasing: wait for the next update
        }
    }

    /// Credits gems once per transaction; unlocks anything else.
    private func deliver(_ transaction: SKPaymentTransaction) {
        let productID = transaction.payment.productIdentifier
        let id = transaction.transactionIdentifier ?? ""
        if transaction.transactionState == .restored {
            restored.append((id, transaction.original?.transactionIdentifier))
        }
        let gemsPerUnit = ShopProduct.gems(for: productID)
        if gemsPerUnit > 0 {
            if credited.insert(id).inserted { gems += gemsPerUnit * transaction.payment.quantity }
        } else {
            unlockedProductIDs.insert(productID)
        }
        finishedTransactionIDs.append(id)
        broadcaster.send(.delivered(productID: productID, transactionID: UInt64(id) ?? 0))
    }
}

extension LegacyStore: @preconcurrency SKPaymentTransactionObserver {
    /// Delivers and finishes purchased and restored transactions; finishes failed ones.
    public func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions { record(transaction) }
    }

    /// Ends ``restorePurchases()``.
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        restoreContinuation?.resume()
        restoreContinuation = nil
    }

    /// Ends ``restorePurchases()`` with the error.
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {
        restoreContinuation?.resume(throwing: error)
        restoreContinuation = nil
    }
}

extension LegacyStore: @preconcurrency SKProductsRequestDelegate {
    /// Keeps the products the App Store answered.
    public func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        products = Dictionary(uniqueKeysWithValues: response.products.map { ($0.productIdentifier, $0) })
        invalidProductIdentifiers = response.invalidProductIdentifiers
    }

    /// Ends ``loadProducts()``.
    public func requestDidFinish(_ request: SKRequest) {
        productsContinuation?.resume()
        productsContinuation = nil
        productsRequest = nil
    }

    /// Ends ``loadProducts()`` with the error.
    public func request(_ request: SKRequest, didFailWithError error: any Error) {
        productsContinuation?.resume(throwing: error)
        productsContinuation = nil
        productsRequest = nil
    }
}
