import Foundation
import Shop
import StoreKit
import StoreKitTest
import Testing

extension ShopTests {
    /// The StoreKit 2 store.
    @Suite("StoreKit 2")
    @MainActor
    struct StoreKit2Tests {
        @Test("the products of the configuration file, with their prices and subscription")
        func products() async throws {
            // The file by URL, from the test target's resource bundle: the other way to open it.
            let file = try #require(Bundle.module.url(forResource: "Shop", withExtension: "storekit"))
            let session = try SKTestSession(contentsOf: file)
            session.clearTransactions()
            let store = Store()
            try await store.loadProducts()
            #expect(store.products.map(\.id) == [ShopProduct.gems100, ShopProduct.clubMonthly, ShopProduct.pro])
            let gems = try #require(store.product(ShopProduct.gems100))
            #expect(gems.type == .consumable)
            #expect(gems.displayName == "100 Gems")
            #expect(gems.description == "A pouch of 100 gems")
            #expect(gems.price == Decimal(string: "0.99"))
            #expect(gems.displayPrice == "$0.99")
            #expect(store.product(ShopProduct.pro)?.type == .nonConsumable)
            let club = try #require(store.product(ShopProduct.clubMonthly)?.subscription)
            #expect(club.subscriptionGroupID == "21500001")
            #expect(club.subscriptionPeriod.unit == .month)
            #expect(club.subscriptionPeriod.value == 1)
        }

        @Test("buying: a consumable credited per transaction and finished, a non-consumable entitled")
        func buy() async throws {
            _ = try makeSession()
            let store = Store()
            try await store.loadProducts()
            let gems = try #require(store.product(ShopProduct.gems100))
            guard case .purchased(let first) = try await store.purchase(gems) else {
                Issue.record("the gems were not purchased")
                return
            }
            guard case .purchased(let second) = try await store.purchase(gems) else {
                Issue.record("the second gems were not purchased")
                return
            }
            #expect(first != second)
            #expect(store.gems == 200)
            var unfinished: [UInt64] = []
            for await result in Transaction.unfinished { unfinished.append(result.unsafePayloadValue.id) }
            #expect(unfinished.isEmpty, "the store finishes what it delivered")

            guard case .purchased(let pro) = try await store.purchase(try #require(store.product(ShopProduct.pro)))
            else {
                Issue.record("Pro was not purchased")
                return
            }
            #expect(store.ownsPro)
            #expect(store.entitlementTransactionIDs[ShopProduct.pro] == pro)
            let latest = try #require(await Transaction.latest(for: ShopProduct.pro))
            guard case .verified(let transaction) = latest else {
                Issue.record("Pro's transaction did not verify")
                return
            }
            #expect(transaction.id == pro)
            #expect(transaction.appAccountToken == store.accountToken)
            #expect(transaction.productType == .nonConsumable)

            let reinstalled = Store()
            #expect(!reinstalled.ownsPro)
            try await reinstalled.restorePurchases()
            #expect(reinstalled.ownsPro, "Restore Purchases brings Pro back")
        }

        @Test("Ask to Buy approved: pending, then delivered through Transaction.updates")
        func askToBuyApproved() async throws {
            let session = try makeSession()
            session.askToBuyEnabled = true
            let store = Store()
            store.start()
            defer { store.stop() }
            try await store.loadProducts()
            let changes = store.changes()
            #expect(try await store.purchase(try #require(store.product(ShopProduct.pro))) == .pending)
            #expect(!store.ownsPro)
            let waiting = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
            #expect(waiting.productIdentifier == ShopProduct.pro)
            #expect(waiting.state == .deferred)

            try session.approveAskToBuyTransaction(identifier: waiting.identifier)
            let delivered = await firstChange(in: changes) {
                if case .delivered(ShopProduct.pro, _) = $0 { true } else { false }
            }
            #expect(delivered != nil)
            #expect(store.ownsPro)
            #expect(!session.allTransactions().contains { $0.pendingAskToBuyConfirmation })
        }

        @Test("Ask to Buy declined: nothing delivered, nothing owed")
        func askToBuyDeclined() async throws {
            let session = try makeSession()
            session.askToBuyEnabled = true
            let store = Store()
            try await store.loadProducts()
            #expect(try await store.purchase(try #require(store.product(ShopProduct.pro))) == .pending)
            let waiting = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })

            try session.declineAskToBuyTransaction(identifier: waiting.identifier)
            #expect(!session.allTransactions().contains { $0.pendingAskToBuyConfirmation })
            #expect(
                !session.allTransactions().contains {
                    $0.productIdentifier == ShopProduct.pro && $0.state == .purchased
                })
            await store.refreshEntitlements()
            #expect(!store.ownsPro)
            #expect(await Transaction.latest(for: ShopProduct.pro) == nil)
        }

        @Test("a refund reaches Transaction.updates: Pro and the gems are taken back")
        func refund() async throws {
            let session = try makeSession()
            let store = Store()
            store.start()
            defer { store.stop() }
            try await store.loadProducts()
            guard case .purchased(let pro) = try await store.purchase(try #require(store.product(ShopProduct.pro))),
                case .purchased(let gems) = try await store.purchase(try #require(store.product(ShopProduct.gems100)))
            else {
                Issue.record("the purchases failed")
                return
            }
            #expect(store.ownsPro)
            #expect(store.gems == 100)
            let changes = store.changes()

            try session.refundTransaction(identifier: Int(pro))
            #expect(
                await firstChange(in: changes) { $0 == .revoked(productID: ShopProduct.pro, transactionID: pro) } != nil
            )
            #expect(!store.ownsPro)
            try session.refundTransaction(identifier: Int(gems))
            #expect(
                await firstChange(in: changes) { $0 == .revoked(productID: ShopProduct.gems100, transactionID: gems) }
                    != nil)
            #expect(store.gems == 0)
            #expect(session.allTransactions().filter(\.refunded).count == 2)
        }

        @Test("a purchase made outside the app reaches Transaction.updates")
        func purchaseOutsideTheApp() async throws {
            let session = try makeSession()
            let store = Store()
            store.start()
            defer { store.stop() }
            try await store.loadProducts()
            let changes = store.changes()
            let bought = try await session.buyProduct(identifier: ShopProduct.pro)
            let delivered = await firstChange(in: changes) {
                if case .delivered(ShopProduct.pro, _) = $0 { true } else { false }
            }
            #expect(delivered == .delivered(productID: ShopProduct.pro, transactionID: bought.id))
            #expect(store.ownsPro)
            #expect(store.entitlementTransactionIDs[ShopProduct.pro] == bought.id)
        }

        @Test("a subscription renews through Transaction.updates, then expires")
        func subscriptionRenewalAndExpiry() async throws {
            let session = try makeSession()
            let store = Store()
            store.start()
            defer { store.stop() }
            try await store.loadProducts()
            let club = try #require(store.product(ShopProduct.clubMonthly))
            guard case .purchased(let first) = try await store.purchase(club) else {
                Issue.record("the subscription was not purchased")
                return
            }
            #expect(store.isClubMember)
            #expect(store.entitlementTransactionIDs[ShopProduct.clubMonthly] == first)
            let changes = store.changes()

            try session.forceRenewalOfSubscription(productIdentifier: ShopProduct.clubMonthly)
            let renewal = await firstChange(in: changes) {
                if case .delivered(ShopProduct.clubMonthly, let id) = $0 { id != first } else { false }
            }
            guard case .delivered(_, let renewalID) = renewal else {
                Issue.record("no renewal reached Transaction.updates")
                return
            }
            #expect(store.isClubMember)
            #expect(store.entitlementTransactionIDs[ShopProduct.clubMonthly] == renewalID)
            guard case .verified(let renewed) = try #require(await Transaction.latest(for: ShopProduct.clubMonthly))
            else {
                Issue.record("the renewal did not verify")
                return
            }
            #expect(renewed.id == renewalID)
            #expect(renewed.originalID == first)
            #expect(renewed.reason == .renewal)

            try session.expireSubscription(productIdentifier: ShopProduct.clubMonthly)
            await store.refreshEntitlements()
            #expect(!store.isClubMember)
            let statuses = try await #require(club.subscription).status
            #expect(statuses.map(\.state) == [.expired])
        }

        @Test("a failed purchase delivers nothing")
        func failedPurchase() async throws {
            let session = try makeSession()
            defer { session.resetToDefaultState() }
            let store = Store()
            try await store.loadProducts()
            session.failTransactionsEnabled = true
            await #expect(throws: (any Error).self) {
                try await store.purchase(try #require(store.product(ShopProduct.gems100)))
            }
            #expect(store.gems == 0)
            #expect(!session.allTransactions().contains { $0.state == .purchased })
        }
    }
}
