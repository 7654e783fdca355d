import Foundation
import StoreKit
import StoreKitTest
import Testing

/// StoreKit for Linux against a real `storekeeper emulator`. The tests set the process's
/// environment (STOREKEEPER_STOREKIT_*), so they run one at a time.
@Suite(.serialized) struct StoreKitLinuxTests {
    /// Collects `Transaction.updates` while it runs.
    final class Updates: @unchecked Sendable {
        // @unchecked Sendable: `received` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var received: [VerificationResult<Transaction>] = []
        private var task: Task<Void, Never>?

        init() {
            task = Task { [weak self] in
                for await update in Transaction.updates { self?.append(update) }
            }
        }

        private func append(_ update: VerificationResult<Transaction>) {
            lock.lock()
            received.append(update)
            lock.unlock()
        }

        var all: [VerificationResult<Transaction>] {
            lock.lock()
            defer { lock.unlock() }
            return received
        }

        func stop() { task?.cancel() }
    }

    @Test("a missing environment variable is a StoreKitError / SKError, never a crash")
    func missingConfiguration() async throws {
        unsetenv("STOREKEEPER_STOREKIT_URL")
        await #expect(throws: StoreKitError.self) { try await Product.products(for: ["coins100"]) }
        do {
            _ = try await Product.products(for: ["coins100"])
        } catch StoreKitError.systemError(let error) {
            #expect((error as? StoreKitConfigurationError)?.variable == "STOREKEEPER_STOREKIT_URL")
        }
        #expect(SKPaymentQueue.canMakePayments() == false)
        #expect(throws: SKError.self) { try SKTestSession(contentsOf: Self.shopFile) }
    }

    @Test("products, a verified purchase with token and quantity, unfinished, finish, receipt")
    func purchaseAndFinish() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let device = TestDevice(emulator)
        let products = try await Product.products(for: ["coins100", "vip.monthly", "nothing"])
        #expect(products.map(\.id).sorted() == ["coins100", "vip.monthly"])
        let coins = try #require(products.first { $0.id == "coins100" })
        #expect(coins.type == .consumable)
        #expect(coins.price == Decimal(string: "0.99"))
        #expect(coins.displayPrice == "$0.99")
        #expect(coins.displayName == "100 Coins")
        let vip = try #require(products.first { $0.id == "vip.monthly" })
        #expect(vip.subscription?.subscriptionGroupID == "20000001")

        let token = UUID()
        let result = try await coins.purchase(options: [.appAccountToken(token), .quantity(2)])
        guard case .success(.verified(let transaction)) = result else {
            Issue.record("expected a verified success, got \(result)")
            return
        }
        #expect(transaction.productID == "coins100")
        #expect(transaction.appAccountToken == token)
        #expect(transaction.purchasedQuantity == 2)
        #expect(transaction.productType == .consumable)
        #expect(transaction.environment == .sandbox)
        #expect(transaction.price == Decimal(string: "1.98"))
        #expect(device.receipt?.isEmpty == false, "the app receipt is written to $STOREKEEPER_STOREKIT_DATA/receipt")

        var unfinished: [UInt64] = []
        for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue.id) }
        #expect(unfinished == [transaction.id])
        await transaction.finish()
        unfinished = []
        for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue.id) }
        #expect(unfinished.isEmpty)
        var all: [UInt64] = []
        for await result in Transaction.all { all.append(result.unsafePayloadValue.id) }
        #expect(all.isEmpty, "a finished consumable leaves Transaction.all")

        guard case .success(.verified(let subscription)) = try await vip.purchase() else {
            Issue.record("the subscription did not verify")
            return
        }
        #expect(await Transaction.currentEntitlement(for: "vip.monthly")?.unsafePayloadValue.id == subscription.id)
        #expect(await Transaction.latest(for: "vip.monthly")?.unsafePayloadValue.id == subscription.id)
        let statuses = try await #require(vip.subscription).status
        #expect(statuses.map(\.state) == [.subscribed])
        guard case .verified(let app) = try await AppTransaction.shared else {
            Issue.record("the app transaction did not verify")
            return
        }
        #expect(app.appTransactionID == subscription.appTransactionID)
        try await AppStore.sync()
        await #expect(throws: Product.PurchaseError.invalidQuantity) {
            try await coins.purchase(options: [.quantity(11)])
        }
    }

    @Test("a JWS from another root is unverified: a foreign pinned root, a tampered signature")
    func foreignRootIsUnverified() async throws {
        let foreign = try EmulatorProcess()
        let foreignDevice = TestDevice(foreign, name: "foreign")
        let foreignRoot = try TrustedRoot.der(for: StoreKitConfiguration.current())  // fetched and pinned
        #expect(
            FileManager.default.fileExists(
                atPath: foreignDevice.data.appendingPathComponent("emulator-jws-root.der").path))
        foreign.stop()

        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let device = TestDevice(emulator)
        try FileManager.default.createDirectory(at: device.data, withIntermediateDirectories: true)
        try foreignRoot.write(to: device.data.appendingPathComponent("emulator-jws-root.der"))
        let coins = try #require(try await Product.products(for: ["coins100"]).first)
        let result = try await coins.purchase()
        guard case .success(let verification) = result else {
            Issue.record("expected success, got \(result)")
            return
        }
        guard case .unverified(let transaction, let error) = verification else {
            Issue.record("a JWS under another root verified")
            return
        }
        #expect(error == .invalidCertificateChain)
        #expect(transaction.productID == "coins100")
        #expect(throws: VerificationResult<Transaction>.VerificationError.invalidCertificateChain) {
            try verification.payloadValue
        }

        // The right root verifies the same JWS; a changed payload does not.
        let root = try EmulatorClient(configuration: StoreKitConfiguration.current()).jwsRoot()
        let jws = try #require(JWS(verification.jwsRepresentation))
        #expect(JWSVerifier.verify(jws, root: root) == nil)
        var parts = verification.jwsRepresentation.split(separator: ".").map(String.init)
        parts[1] = Data(#"{"transactionId":"1","productId":"coins100","type":"Consumable","purchaseDate":0}"#.utf8)
            .base64EncodedString().replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        let tampered = try #require(JWS(parts.joined(separator: ".")))
        #expect(JWSVerifier.verify(tampered, root: root) == .invalidSignature)
        #expect(JWSVerifier.verify(jws, root: foreignRoot) == .invalidCertificateChain)
    }

    @Test("Transaction.updates: a purchase outside the app, a refund, an approved Ask to Buy; not the app's own")
    func updates() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        let client = try EmulatorClient(configuration: StoreKitConfiguration.current())
        let updates = Updates()
        defer { updates.stop() }
        try await Task.sleep(for: .milliseconds(600))  // the listener's first poll

        let levels = try #require(try await Product.products(for: ["levelpack1"]).first)
        guard case .success(.verified(let own)) = try await levels.purchase() else {
            Issue.record("purchase failed")
            return
        }
        let outside = try #require(
            try client.purchase(productId: "coins500", appAccountToken: nil, quantity: 1).transactionId)
        #expect(await eventually { updates.all.contains { String($0.unsafePayloadValue.id) == outside } })
        try client.refund(transactionId: String(own.id))
        #expect(
            await eventually {
                updates.all.contains {
                    $0.unsafePayloadValue.id == own.id && $0.unsafePayloadValue.revocationDate != nil
                }
            })
        #expect(
            !updates.all.contains { $0.unsafePayloadValue.id == own.id && $0.unsafePayloadValue.revocationDate == nil })

        let potion = try #require(try await Product.products(for: ["potion"]).first)
        let pending = try await potion.purchase(options: [.simulatesAskToBuyInSandbox(true)])
        guard case .pending = pending else {
            Issue.record("expected pending, got \(pending)")
            return
        }
        let waiting = try client.pendingPurchases()
        #expect(waiting.map(\.productId) == ["potion"])
        let approved = try #require(try client.approve(pendingId: waiting[0].pendingId).transactionId)
        #expect(await eventually { updates.all.contains { String($0.unsafePayloadValue.id) == approved } })
        #expect(updates.all.allSatisfy { if case .verified = $0 { true } else { false } })
    }

    @Test("StoreKit 1: observer on the main queue, applicationUsername, receipt file, finish, restore")
    func storeKit1() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        let device = TestDevice(emulator)
        DispatchQueue.main.setSpecific(key: Observer.mainQueueKey, value: true)
        let observer = Observer()
        let queue = SKPaymentQueue.default()
        queue.add(observer)
        defer { queue.remove(observer) }

        let request = SKProductsRequest(productIdentifiers: ["levelpack1", "unknown.product"])
        let delegate = ProductsDelegate()
        request.delegate = delegate
        request.start()
        #expect(await eventually { delegate.response != nil })
        #expect(delegate.response?.products.map(\.productIdentifier) == ["levelpack1"])
        #expect(delegate.response?.invalidProductIdentifiers == ["unknown.product"])
        let product = try #require(delegate.response?.products.first)
        #expect(product.price == NSDecimalNumber(string: "2.99"))

        let username = UUID().uuidString.lowercased()
        let payment = SKMutablePayment(product: product)
        payment.applicationUsername = username
        queue.add(payment)
        #expect(await eventually { observer.states(of: "levelpack1").contains(.purchased) })
        #expect(observer.states(of: "levelpack1").first == .purchasing)
        #expect(observer.allOnMainQueue)
        let purchased = try #require(observer.transactions.last { $0.transactionState == .purchased })
        #expect(purchased.payment.applicationUsername == username)
        #expect(purchased.transactionIdentifier != nil)
        #expect(device.receipt?.isEmpty == false)
        let purchasedId = try #require(purchased.transactionIdentifier)
        queue.finishTransaction(purchased)
        #expect(await eventually { observer.removed.contains(purchasedId) })

        queue.restoreCompletedTransactions(withApplicationUsername: username)
        #expect(await eventually { observer.restoreFinished })
        let restored = observer.transactions.filter { $0.transactionState == .restored }
        #expect(restored.map(\.payment.productIdentifier) == ["levelpack1"])
        #expect(restored.first?.original?.transactionIdentifier == purchasedId)

        let refresh = SKReceiptRefreshRequest()
        let refreshDelegate = ProductsDelegate()
        refresh.delegate = refreshDelegate
        try FileManager.default.removeItem(at: device.data.appendingPathComponent("receipt"))
        refresh.start()
        #expect(await eventually { refreshDelegate.finished })
        #expect(device.receipt?.isEmpty == false)
    }

    @Test("SKTestSession with a .storekit file: catalog, Ask to Buy, buyProduct, refund, renew, expire")
    func testSession() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        let session = try SKTestSession(contentsOf: Self.shopFile)
        session.disableDialogs = true
        session.clearTransactions()
        let products = try await Product.products(for: ["shop.gems10", "shop.levels", "shop.club.monthly"])
        #expect(products.count == 3)
        let gems = try #require(products.first { $0.id == "shop.gems10" })
        #expect(gems.displayName == "10 Gems")
        #expect(gems.description == "A handful of gems")
        #expect(gems.displayPrice == "$1.99")
        #expect(products.first { $0.id == "shop.club.monthly" }?.subscription?.subscriptionGroupID == "21400001")

        let updates = Updates()
        defer { updates.stop() }
        try await Task.sleep(for: .milliseconds(600))

        session.askToBuyEnabled = true
        guard case .pending = try await gems.purchase() else {
            Issue.record("Ask to Buy did not hold the purchase")
            return
        }
        let deferred = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
        #expect(deferred.state == .deferred)
        try session.approveAskToBuyTransaction(identifier: deferred.identifier)
        #expect(await eventually { updates.all.contains { $0.unsafePayloadValue.productID == "shop.gems10" } })
        guard case .pending = try await gems.purchase() else {
            Issue.record("Ask to Buy did not hold the second purchase")
            return
        }
        let second = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
        try session.declineAskToBuyTransaction(identifier: second.identifier)
        #expect(!session.allTransactions().contains { $0.pendingAskToBuyConfirmation })
        session.askToBuyEnabled = false

        try session.buyProduct(productIdentifier: "shop.levels")
        #expect(await eventually { updates.all.contains { $0.unsafePayloadValue.productID == "shop.levels" } })
        let levels = try #require(session.allTransactions().first { $0.productIdentifier == "shop.levels" })
        #expect(UInt64(levels.identifier) == updates.all.last?.unsafePayloadValue.id)
        try session.refundTransaction(identifier: levels.identifier)
        #expect(
            await eventually {
                updates.all.contains {
                    $0.unsafePayloadValue.productID == "shop.levels" && $0.unsafePayloadValue.revocationDate != nil
                }
            })

        try session.buyProduct(productIdentifier: "shop.club.monthly")
        try session.forceRenewalOfSubscription(productIdentifier: "shop.club.monthly")
        #expect(
            await eventually {
                updates.all.contains {
                    $0.unsafePayloadValue.productID == "shop.club.monthly" && $0.unsafePayloadValue.reason == .renewal
                }
            })
        try session.expireSubscription(productIdentifier: "shop.club.monthly")
        #expect(await Transaction.currentEntitlement(for: "shop.club.monthly") == nil)

        session.failTransactionsEnabled = true
        session.failureError = .paymentNotAllowed
        await #expect(throws: StoreKitError.self) { try await gems.purchase() }
        session.resetToDefaultState()
        session.interruptedPurchasesEnabled = true
        guard case .pending = try await gems.purchase() else {
            Issue.record("the interrupted purchase did not wait")
            return
        }
        let interrupted = try #require(session.allTransactions().first { $0.hasPurchaseIssue })
        try session.resolveIssueForTransaction(identifier: interrupted.identifier)
        session.resetToDefaultState()
        #expect(session.allTransactions().filter { $0.productIdentifier == "shop.gems10" }.count == 2)
    }

    static var shopFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Shop.storekit")
    }
}
