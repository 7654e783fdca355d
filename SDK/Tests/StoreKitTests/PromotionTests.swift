import Foundation
import StoreKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension StoreKitLinuxTests {
    @Test("a product promoted to the device reaches PurchaseIntent.intents once, and shouldAddStorePayment")
    func promotions() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        // StoreKit 2 on one device: its sequence reads the device once, when it starts.
        let phone = TestDevice(emulator, name: "phone")
        try await Self.promote("coins500", on: phone, emulator)
        let intent = try #require(await Self.firstIntent())
        #expect(intent.id == "coins500")
        #expect(intent.product.displayPrice == "$3.99")
        #expect(intent.product.priceFormatStyle.currencyCode == "USD")
        #expect(try await Self.waiting(on: phone, emulator).isEmpty, "taken as it was emitted")

        // StoreKit 1 on another: the observer holds the first, accepts the second.
        let tablet = TestDevice(emulator, name: "tablet")
        DispatchQueue.main.setSpecific(key: Observer.mainQueueKey, value: true)
        let observer = PromotionObserver()
        let queue = SKPaymentQueue.default()
        queue.add(observer)
        defer { queue.remove(observer) }
        try await Self.promote("levelpack1", on: tablet, emulator)
        #expect(await eventually { observer.offered == ["levelpack1"] })
        #expect(observer.allOnMainQueue)
        observer.accepts = true
        try await Self.promote("coins100", on: tablet, emulator)
        #expect(await eventually { observer.states(of: "coins100").contains(.purchased) })
        #expect(observer.offered == ["levelpack1", "coins100"])
        #expect(observer.states(of: "levelpack1").isEmpty, "held: no payment was added")
        #expect(try await Self.waiting(on: tablet, emulator).isEmpty)
    }

    private static func firstIntent() async -> PurchaseIntent? {
        var intents = PurchaseIntent.intents.makeAsyncIterator()
        return await intents.next()
    }

    private static func promote(_ productId: String, on device: TestDevice, _ emulator: EmulatorProcess) async throws {
        var request = URLRequest(
            url: emulator.url.appendingPathComponent("emulator/v1/devices/\(device.id)/promotions"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["productId": productId])
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
    }

    private static func waiting(on device: TestDevice, _ emulator: EmulatorProcess) async throws -> [[String: String]] {
        let url = emulator.url.appendingPathComponent("emulator/v1/devices/\(device.id)/promotions")
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode([[String: String]].self, from: data)
    }
}

/// A payment queue observer that answers `shouldAddStorePayment` with ``accepts`` and
/// records the promoted products and the transactions it sees.
///
/// `@unchecked Sendable`: its stored properties are read and written only while `lock` is held.
final class PromotionObserver: NSObject, SKPaymentTransactionObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var accepting = false
    private var products: [String] = []
    private var states: [(String, SKPaymentTransactionState)] = []
    private var offMain = false

    var accepts: Bool {
        get { lock.withLock { accepting } }
        set { lock.withLock { accepting = newValue } }
    }
    var offered: [String] { lock.withLock { products } }
    var allOnMainQueue: Bool { lock.withLock { !offMain } }

    func states(of productId: String) -> [SKPaymentTransactionState] {
        lock.withLock { states.filter { $0.0 == productId }.map(\.1) }
    }

    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        let seen = transactions.map { ($0.payment.productIdentifier, $0.transactionState) }
        lock.withLock { states += seen }
    }

    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct)
        -> Bool
    {
        let onMain = DispatchQueue.getSpecific(key: Observer.mainQueueKey) == true
        return lock.withLock {
            offMain = offMain || !onMain
            products.append(product.productIdentifier)
            return accepting && payment.productIdentifier == product.productIdentifier
        }
    }
}
