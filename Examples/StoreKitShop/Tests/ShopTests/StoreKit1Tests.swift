import Foundation
import Shop
import StoreKit
import StoreKitTest
import Testing

extension ShopTests {
    /// The StoreKit 1 store.
    @Suite("StoreKit 1")
    @MainActor
    struct StoreKit1Tests {
        @Test("SKProductsRequest answers the configuration file's products")
        func products() async throws {
            _ = try makeSession()
            let store = LegacyStore(applicationUsername: UUID().uuidString)
            #expect(store.canMakePayments)
            try await store.loadProducts()
            #expect(Set(store.products.keys) == ShopProduct.all)
            #expect(store.invalidProductIdentifiers.isEmpty)
            let pro = try #require(store.products[ShopProduct.pro])
            #expect(pro.localizedTitle == "Shop Pro")
            #expect(pro.price == NSDecimalNumber(string: "4.99"))
            #expect(store.products[ShopProduct.clubMonthly]?.subscriptionGroupIdentifier == "21500001")
        }

        @Test("purchases with applicationUsername and quantity are delivered; a restore brings Pro back")
        func purchaseAndRestore() async throws {
            _ = try makeSession()
            let username = UUID().uuidString
            let store = LegacyStore(applicationUsername: username)
            store.start()
            defer { store.stop() }
            try await store.loadProducts()
            let changes = store.changes()

            store.buy(try #require(store.products[ShopProduct.pro]))
            let bought = await firstChange(in: changes) {
                if case .delivered(ShopProduct.pro, _) = $0 { true } else { false }
            }
            guard case .delivered(_, let proID) = bought else {
                Issue.record("Pro was not delivered")
                return
            }
            #expect(store.unlockedProductIDs == [ShopProduct.pro])
            #expect(store.history.filter { $0.productID == ShopProduct.pro }.map(\.state) == [.purchasing, .purchased])

            store.buy(try #require(store.products[ShopProduct.gems100]), quantity: 2)
            _ = await firstChange(in: changes) {
                if case .delivered(ShopProduct.gems100, _) = $0 { true } else { false }
            }
            #expect(store.gems == 200)
            store.stop()  // the app quits; the player reinstalls it

            guard case .verified(let transaction) = try #require(await Transaction.latest(for: ShopProduct.pro)) else {
                Issue.record("Pro's transaction did not verify")
                return
            }
            #expect(transaction.id == proID)
            #expect(
                transaction.appAccountToken == UUID(uuidString: username), "applicationUsername reached the App Store")

            let reinstalled = LegacyStore(applicationUsername: username)
            reinstalled.start()
            defer { reinstalled.stop() }
            try await reinstalled.restorePurchases()
            #expect(reinstalled.unlockedProductIDs == [ShopProduct.pro])
            #expect(reinstalled.restored.map(\.originalID) == [String(proID)])
            #expect(reinstalled.gems == 0, "consumables are not restored")
        }

        @Test("Ask to Buy: the payment is deferred, then purchased once approved")
        func askToBuy() async throws {
            let session = try makeSession()
            session.askToBuyEnabled = true
            defer { session.resetToDefaultState() }
            let store = LegacyStore(applicationUsername: UUID().uuidString)
            store.start()
            defer { store.stop() }
            try await store.loadProducts()
            let changes = store.changes()

            store.buy(try #require(store.products[ShopProduct.pro]))
            #expect(await firstChange(in: changes) { $0 == .waiting(productID: ShopProduct.pro) } != nil)
            let waiting = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
            #expect(store.history.map(\.state) == [.purchasing, .deferred])
            #expect(store.unlockedProductIDs.isEmpty)

            try session.approveAskToBuyTransaction(identifier: waiting.identifier)
            let delivered = await firstChange(in: changes) {
                if case .delivered(ShopProduct.pro, _) = $0 { true } else { false }
            }
            #expect(delivered != nil)
            #expect(store.history.map(\.state) == [.purchasing, .deferred, .purchased])
            #expect(store.unlockedProductIDs == [ShopProduct.pro])
        }
    }
}
