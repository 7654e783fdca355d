import Foundation
@_spi(StoreKeeperDevices) import StoreKit
import Testing

extension StoreKitLinuxTests {
    @Test(
        "two StoreKitDevices in one process: each its own purchases, receipt and payment queue, not the environment's")
    func devicesInOneProcessStayApart() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let environment = TestDevice(emulator, name: "environment")
        let phoneA = try StoreKitDevice(
            url: emulator.url, deviceId: "phone-a", dataDirectory: emulator.directory.appendingPathComponent("a"))
        let phoneB = try StoreKitDevice(
            url: emulator.url, deviceId: "phone-b", dataDirectory: emulator.directory.appendingPathComponent("b"))

        let boughtOnA = try await phoneA.run { try await Self.buy("coins100") }
        let boughtOnB = try await phoneB.run { try await Self.buy("potion") }
        #expect(await phoneA.run { await Self.unfinished() } == [boughtOnA])
        #expect(await phoneB.run { await Self.unfinished() } == [boughtOnB])
        #expect(await Self.unfinished().isEmpty, "the environment's device bought nothing")
        #expect(FileManager.default.fileExists(atPath: phoneA.receiptURL.path))
        #expect(FileManager.default.fileExists(atPath: phoneB.receiptURL.path))
        #expect(environment.receipt == nil)
        #expect(phoneA.run { StoreKitDevice.current } == phoneA)
        #expect(StoreKitDevice.current == nil)

        let queueA = phoneA.run { SKPaymentQueue.default() }
        #expect(phoneA.run { SKPaymentQueue.default() } === queueA, "one queue per launch")
        #expect(phoneB.run { SKPaymentQueue.default() } !== queueA)
        #expect(SKPaymentQueue.default() !== queueA)

        // StoreKit 1 on phone B: its queue's observer hears of B's payment; A's hears nothing
        // of it, though both queues poll the one emulator.
        DispatchQueue.main.setSpecific(key: Observer.mainQueueKey, value: true)
        let observerA = Observer()
        let observerB = Observer()
        queueA.add(observerA)
        let queueB = phoneB.run { SKPaymentQueue.default() }
        queueB.add(observerB)
        defer {
            queueA.remove(observerA)
            queueB.remove(observerB)
        }
        let payment = SKMutablePayment()
        payment.productIdentifier = "coins500"
        queueB.add(payment)
        #expect(await eventually { observerB.states(of: "coins500").contains(.purchased) })
        #expect(await eventually { observerA.states(of: "coins100").contains(.purchased) }, "A's own unfinished one")
        #expect(observerA.states(of: "coins500").isEmpty)
        #expect(observerA.states(of: "potion").isEmpty)
    }

    @Test(
        "a new StoreKitDevice for the same phone is the app launched again: Transaction.updates yields what is unfinished"
    )
    func aNewLaunchSeesWhatTheLastLeftUnfinished() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        let data = emulator.directory.appendingPathComponent("phone")
        let first = try StoreKitDevice(url: emulator.url, deviceId: "phone", dataDirectory: data)
        let bought = try await first.run { try await Self.buy("coins100") }

        let again = try StoreKitDevice(url: emulator.url, deviceId: "phone", dataDirectory: data)
        #expect(again != first)
        let listener = again.run {
            Task { () -> UInt64? in
                for await update in Transaction.updates { return update.unsafePayloadValue.id }
                return nil
            }
        }
        let deadline = Task {
            try await Task.sleep(for: .seconds(20))
            listener.cancel()
        }
        let yielded = await listener.value
        deadline.cancel()
        #expect(yielded == bought, "the launch's listener gets the transaction the last launch left unfinished")
    }

    @Test("a StoreKitDevice takes only what its environment variable would: bad ids and URLs are refused")
    func aStoreKitDeviceIsChecked() throws {
        let data = FileManager.default.temporaryDirectory
        #expect(throws: StoreKitConfigurationError.self) {
            try StoreKitDevice(url: URL(string: "ftp://127.0.0.1")!, deviceId: "phone", dataDirectory: data)
        }
        #expect(throws: StoreKitConfigurationError.self) {
            try StoreKitDevice(url: URL(string: "http://127.0.0.1")!, deviceId: "../phone", dataDirectory: data)
        }
        #expect(throws: StoreKitConfigurationError.self) {
            try StoreKitDevice(url: URL(string: "http://127.0.0.1")!, deviceId: "", dataDirectory: data)
        }
    }

    /// Buys `productID` as the current device; the verified transaction's id.
    private static func buy(_ productID: String) async throws -> UInt64 {
        let product = try #require(try await Product.products(for: [productID]).first)
        guard case .success(.verified(let transaction)) = try await product.purchase() else {
            throw CocoaError(.fileReadUnknown)
        }
        return transaction.id
    }

    /// The current device's unfinished transactions' ids.
    private static func unfinished() async -> [UInt64] {
        var ids: [UInt64] = []
        for await result in Transaction.unfinished { ids.append(result.unsafePayloadValue.id) }
        return ids
    }
}
