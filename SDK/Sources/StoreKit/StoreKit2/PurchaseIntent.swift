import Foundation

/// An instance that emits purchase intents, which indicate that the customer initiated a
/// purchase outside of your app, for your app to complete: on Linux, a product promoted to
/// the device through the emulator (`POST /emulator/v1/devices/{deviceId}/promotions`).
///
/// Apple: `struct PurchaseIntent` (https://developer.apple.com/documentation/storekit/purchaseintent).
/// Not implemented: `offer` (win-back offers; the emulator has no offers).
public struct PurchaseIntent: Identifiable, Hashable, Sendable {
    /// The product information of the In-App Purchase the customer selects to purchase
    /// outside of the app.
    public let product: Product

    /// The identifier of the intent: its product's.
    public var id: Product.ID { product.id }

    /// An asynchronous sequence of purchase intents for purchases that customers initiate
    /// outside of the app.
    ///
    /// Apple: `struct PurchaseIntents` (https://developer.apple.com/documentation/storekit/purchaseintent/purchaseintents).
    public struct PurchaseIntents: AsyncSequence, Sendable {
        public typealias Element = PurchaseIntent

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: PurchaseIntent.poll().makeAsyncIterator())
        }

        /// The iterator of ``PurchaseIntent/PurchaseIntents``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<PurchaseIntent>.AsyncIterator

            public mutating func next() async -> PurchaseIntent? {
                await base.next()
            }
        }
    }

    /// The asynchronous sequence that emits a purchase intent when customers initiate a
    /// purchase outside of the app. While it is iterated, the emulator's promotions for the
    /// device are polled every quarter second; each is taken (deleted) as it is emitted, so
    /// it reaches one reader only (an iterator of this sequence or an `SKPaymentQueue`
    /// observer), and one the app never read waits for its next launch.
    public static var intents: PurchaseIntent.PurchaseIntents { PurchaseIntents() }

    private static func poll() -> AsyncStream<PurchaseIntent> {
        AsyncStream { continuation in
            let task = Task {
                guard let client = try? StoreKit2Call.client() else {
                    continuation.finish()
                    return
                }
                while !Task.isCancelled {
                    if let promoted = try? await StoreKit2Call.run({ try client.takePromotions() }) {
                        for product in promoted { continuation.yield(PurchaseIntent(product: Product(product))) }
                    }
                    try? await Task.sleep(for: TransactionFeed.pollInterval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
