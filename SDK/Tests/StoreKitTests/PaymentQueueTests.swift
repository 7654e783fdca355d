import Foundation
import StoreKit
import Testing

extension StoreKitLinuxTests {
    @Test("StoreKit 1: each purchase comes once, as its own payment's transaction, while the queue polls")
    func paymentQueuePurchaseComesOnce() async throws {
        let emulator = try EmulatorProcess()
        defer { emulator.stop() }
        _ = TestDevice(emulator)
        DispatchQueue.main.setSpecific(key: Observer.mainQueueKey, value: true)
        let observer = Observer()
        let queue = SKPaymentQueue.default()
        queue.add(observer)
        defer { queue.remove(observer) }

        // The queue polls the unfinished transactions while a purchase is answered: a
        // poll that sees the new transaction first must not deliver it as another one.
        let rounds = 24
        for round in 1...rounds {
            let payment = SKMutablePayment()
            payment.productIdentifier = "coins100"
            payment.quantity = 2
            queue.add(payment)
            #expect(await eventually { observer.states(of: "coins100").filter { $0 == .purchased }.count >= round })
        }
        #expect(observer.states(of: "coins100").filter { $0 == .purchased }.count == rounds)
        let transactions = observer.transactions  // one object per payment, updated from .purchasing
        #expect(Set(transactions.map(ObjectIdentifier.init)).count == rounds)
        #expect(Set(transactions.compactMap(\.transactionIdentifier)).count == rounds)
        #expect(transactions.allSatisfy { $0.payment.quantity == 2 }, "each is its payment's transaction")
    }
}
