import Foundation
import StoreKit
import StoreKitTest
import Testing

/// What an iOS team's StoreKit tests rely on (Examples/StoreKitShop): the `.storekit`
/// file found by name among the test target's resources, `clearTransactions()` between
/// tests on one device, and a `Transaction.updates` listener that sees everything after it
/// began.
extension StoreKitLinuxTests {
    @Test("SKTestSession(configurationFileNamed:) finds the file among the test target's resources")
    func configurationFileNamed() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        // Not in Bundle.main nor in Bundle.allBundles on Linux: in the resource bundle
        // beside the test executable (`.copy("Fixtures")`), as Bundle.module finds it.
        #expect(Bundle.main.url(forResource: "Shop", withExtension: "storekit") == nil)
        _ = try SKTestSession(configurationFileNamed: "Shop")
        _ = try SKTestSession(configurationFileNamed: "Shop.storekit")
        let products = try await Product.products(for: ["shop.gems10", "shop.levels", "shop.club.monthly"])
        #expect(products.count == 3)
        #expect(throws: SKError.self) { try SKTestSession(configurationFileNamed: "NoSuchFile") }
    }

    @Test("clearTransactions() on a device that bought: no transaction, entitlement or restore; Ask to Buy kept")
    func clearTransactionsClears() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let device = TestDevice(emulator)
        let session = try SKTestSession(contentsOf: Self.shopFile)
        let products = try await Product.products(for: ["shop.levels", "shop.club.monthly", "shop.gems10"])
        for product in products {
            guard case .success(.verified) = try await product.purchase() else {
                Issue.record("\(product.id) was not purchased")
                return
            }
        }
        #expect(session.allTransactions().count == 3)
        #expect(device.receipt != nil)

        session.askToBuyEnabled = true
        session.clearTransactions()
        #expect(session.allTransactions().isEmpty)
        var all: [Transaction] = []
        for await result in Transaction.all { all.append(result.unsafePayloadValue) }
        #expect(all.isEmpty)
        var entitled: [Transaction] = []
        for await result in Transaction.currentEntitlements { entitled.append(result.unsafePayloadValue) }
        #expect(entitled.isEmpty)
        var unfinished: [Transaction] = []
        for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue) }
        #expect(unfinished.isEmpty)
        #expect(try await #require(products.first { $0.id == "shop.club.monthly" }?.subscription).status.isEmpty)
        #expect(device.receipt == nil, "the old receipt is gone")

        let levels = try #require(products.first { $0.id == "shop.levels" })
        guard case .pending = try await levels.purchase() else {
            Issue.record("Ask to Buy was lost by clearTransactions()")
            return
        }
        let waiting = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
        try session.approveAskToBuyTransaction(identifier: waiting.identifier)
        #expect(session.allTransactions().map(\.productIdentifier) == ["shop.levels"])
    }

    @Test(
        "Transaction.updates: a purchase outside the app and a refund of the app's own purchase, both before its first poll",
        .timeLimit(.minutes(1)))
    func updatesBeforeTheFirstPoll() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        let client = try EmulatorClient(configuration: StoreKitConfiguration.current())
        var updates = Transaction.updates.makeAsyncIterator()  // the iteration begins here
        let outside = try #require(
            try client.purchase(productId: "coins500", appAccountToken: nil, quantity: 1).transactionId)
        let potion = try #require(try await Product.products(for: ["potion"]).first)
        guard case .success(.verified(let own)) = try await potion.purchase() else {
            Issue.record("the purchase failed")
            return
        }
        try client.refund(transactionId: String(own.id))

        var received: [Transaction] = []
        while received.count < 2, let next = await updates.next() { received.append(next.unsafePayloadValue) }
        #expect(received.contains { String($0.id) == outside && $0.revocationDate == nil })
        #expect(received.contains { $0.id == own.id && $0.revocationDate != nil })
    }

    @Test("buyProduct(identifier:options:): a purchase outside the app with token and quantity, its transaction")
    func buyProductWithOptions() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        let session = try SKTestSession(contentsOf: Self.shopFile)
        let token = UUID()
        let transaction = try await session.buyProduct(
            identifier: "shop.gems10", options: [.appAccountToken(token), .quantity(3)])
        #expect(transaction.productID == "shop.gems10")
        #expect(transaction.appAccountToken == token)
        #expect(transaction.purchasedQuantity == 3)
        #expect(session.allTransactions().map(\.identifier) == [Int(transaction.id)])
        var unfinished: [UInt64] = []
        for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue.id) }
        #expect(unfinished == [transaction.id], "the app still has to finish it")
        await #expect(throws: Product.PurchaseError.productUnavailable) {
            try await session.buyProduct(identifier: "no.such.product")
        }
        await #expect(throws: Product.PurchaseError.invalidQuantity) {
            try await session.buyProduct(identifier: "shop.gems10", options: [.quantity(11)])
        }
    }

    @Test(
        "a Transaction.updates listener started before clearTransactions() sees what happens after it",
        .timeLimit(.minutes(1)))
    func updatesFollowClearTransactions() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        let session = try SKTestSession(contentsOf: Self.shopFile)
        var updates = Transaction.updates.makeAsyncIterator()  // the app's listener, from its launch
        session.clearTransactions()  // a test's setUp
        let bought = try await session.buyProduct(identifier: "shop.levels")
        let update = await updates.next()
        #expect(update?.unsafePayloadValue.id == bought.id)
    }
}
