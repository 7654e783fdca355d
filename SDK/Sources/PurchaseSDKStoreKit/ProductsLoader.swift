import Foundation
import PurchaseSDK
import StoreKit

/// One `SKProductsRequest`, awaited; it keeps the request and itself (the request's
/// delegate is weak) alive until StoreKit answers.
///
/// `@unchecked Sendable` is safe: `continuation` and `request` are set once before the
/// request starts and taken once, under `lock`, by the first delegate callback.
final class ProductsLoader: NSObject, SKProductsRequestDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<[StoreProduct], any Error>?
    private var request: SKProductsRequest?

    /// The products with these ids the App Store sells, as the pipeline sees them.
    static func load(_ ids: [String]) async throws -> [StoreProduct] {
        try await ProductsLoader().load(Set(ids))
    }

    private func load(_ ids: Set<String>) async throws -> [StoreProduct] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[StoreProduct], any Error>) in
            let request = SKProductsRequest(productIdentifiers: ids)
            request.delegate = self
            lock.withLock {
                self.continuation = continuation
                self.request = request
            }
            request.start()
        }
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        take()?.resume(
            returning: response.products.map {
                StoreProduct(
                    productId: $0.productIdentifier, displayName: $0.localizedTitle,
                    priceMilliunits: Int64(truncating: $0.price.multiplying(byPowerOf10: 3)),
                    currency: $0.priceLocale.currency?.identifier ?? "USD")
            })
    }

    func request(_ request: SKRequest, didFailWithError error: any Error) {
        take()?.resume(throwing: error)
    }

    private func take() -> CheckedContinuation<[StoreProduct], any Error>? {
        lock.withLock {
            defer {
                continuation = nil
                request = nil
            }
            return continuation
        }
    }
}
