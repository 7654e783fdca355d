import AppStoreEmulator
import Foundation
import Ledger
import PurchaseSDK
import Testing

/// Ask to Buy, promoted purchases, the StoreKit 1 receipt path and the event log.
@Suite(.timeLimit(.minutes(3))) struct StoreFlowTests {
    @Test func theEmulatedStoreSellsItsCatalog() async throws {
        try await withFixture { fixture in
            let (_, store) = await fixture.pipeline(player: nil)
            let products = try await store.products(ids: ["coins100", "potion", "no.such.product"])
            #expect(products.map(\.productId).sorted() == ["coins100", "potion"])
            #expect(products.first { $0.productId == "coins100" }?.priceMilliunits == 990)
        }
    }

    @Test func askToBuyStaysPendingAcrossLaunchesUntilApproved() async throws {
        try await withFixture { fixture in
            try await fixture.stack.emulator.updateDevice("phone", settings: DeviceSettings(askToBuy: true))
            let (first, _) = await fixture.pipeline(player: "pia")
            try await first.start()
            let asked = try await first.purchase(productId: "coins100")
            guard case .pending = asked else {
                Issue.record("expected pending, got \(asked)")
                return
            }
            await first.stop()

            let (second, _) = await fixture.pipeline(player: nil)
            try await second.start()
            #expect(await second.pendingDeliveries().map(\.state) == [.pending])
            var outcomes = second.outcomes.makeAsyncIterator()
            let pending = try #require(await fixture.stack.emulator.pendingPurchases(deviceId: "phone").first)
            _ = try await fixture.stack.emulator.approvePendingPurchase(pending.pendingId)

            guard case .delivered(let record) = await outcomes.next() else {
                Issue.record("the approval was not delivered")
                return
            }
            #expect(record.id == asked.record.id)
            #expect(try await fixture.wallet("pia") == ["coins": 100])
            #expect(await second.pendingDeliveries().isEmpty)
            await second.stop()
        }
    }

    @Test func aChargeWhoseAnswerWasLostIsDeliveredFromTheStoresUpdates() async throws {
        try await withFixture { fixture in
            await fixture.faults.add(.loseAnswer, times: 1, path: "/devices/phone/purchases")
            let (pipeline, _) = await fixture.pipeline(player: "tara")
            try await pipeline.start()
            var outcomes = pipeline.outcomes.makeAsyncIterator()
            let answer = try await pipeline.purchase(productId: "coins100")
            #expect(answer.record.state == .failed(reason: "store_unavailable"))
            #expect(await outcomes.next() == answer)

            guard case .delivered(let record) = await outcomes.next() else {
                Issue.record("the charge was not delivered")
                return
            }
            #expect(record.id == answer.record.id)
            #expect(try await fixture.wallet("tara") == ["coins": 100])
            #expect(await fixture.charges().map(\.finished) == [true])
            await pipeline.stop()
        }
    }

    /// The journal forgets the failed order at once (it is closed: no transaction known);
    /// the charge surfaces after a relaunch as a transaction no record knows.
    @Test func aChargeOfAForgottenOrderStillReachesThePlayerWhoOrdered() async throws {
        try await withFixture { fixture in
            let forgetful = JournalRetention(closedRecordLimit: 0)
            await fixture.faults.add(.loseAnswer, times: 1, path: "/devices/phone/purchases")
            await fixture.faults.add(.status(503), times: 10_000, path: "/devices/phone/transactions/unfinished")
            let (first, _) = await fixture.pipeline(player: "tara", retention: forgetful)
            try await first.start()
            let answer = try await first.purchase(productId: "coins100")
            #expect(answer.record.state == .failed(reason: "store_unavailable"))
            await first.stop()
            #expect(try await FilePurchaseJournal(url: fixture.journalURL()).load().records.isEmpty)

            await fixture.faults.clear()
            let (revived, _) = await fixture.pipeline(player: "tara", retention: forgetful)
            try await revived.start()
            await revived.waitUntilIdle()
            let adopted = await revived.allRecords()
            #expect(adopted.map(\.origin) == [.store], "reported as a transaction no record knows")
            #expect(adopted.map(\.state) == [.finished])
            let purchases = try await fixture.purchases("tara")
            #expect(purchases.map(\.orderId) == [answer.record.orderId], "bound to the forgotten order by its token")
            #expect(try await fixture.wallet("tara") == ["coins": 100])
            #expect(await fixture.charges().map(\.finished) == [true])
            await revived.stop()
        }
    }

    @Test func aPromotedPurchaseWaitsForAPlayer() async throws {
        try await withFixture { fixture in
            let (pipeline, store) = await fixture.pipeline(player: nil)
            try await pipeline.start()
            var outcomes = pipeline.outcomes.makeAsyncIterator()
            store.promote(productId: "coins500")
            try await Task.sleep(for: .milliseconds(200))
            #expect(await pipeline.allRecords().isEmpty, "held: no player to order for")
            #expect(await fixture.charges().isEmpty)

            await pipeline.signIn(playerId: "quinn")
            guard case .delivered(let record) = await outcomes.next() else {
                Issue.record("the promoted purchase was not delivered")
                return
            }
            #expect(record.origin == .promoted)
            #expect(try await fixture.wallet("quinn") == ["coins": 500])
            await pipeline.stop()
        }
    }

    @Test func theStoreKit1PathReportsTheReceipt() async throws {
        try await withFixture { fixture in
            let (pipeline, _) = await fixture.pipeline(player: "rosa", behaviour: .storeKit1)
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            guard case .delivered(let record) = outcome else {
                Issue.record("expected a delivery, got \(outcome)")
                return
            }
            #expect(record.signedTransaction == nil)
            let purchase = try #require(try await fixture.purchases("rosa").first)
            #expect(purchase.source == .clientReceipt)
            #expect(purchase.orderId == record.orderId)
            #expect(await fixture.charges().map(\.finished) == [true])
            await pipeline.stop()
        }
    }

    @Test func theEventLogReachesTheServerInBatches() async throws {
        try await withFixture { fixture in
            let (pipeline, _) = await fixture.pipeline(player: "sam")
            try await pipeline.start()
            _ = try await pipeline.purchase(productId: "coins100")
            await pipeline.events.flush()
            #expect(await pipeline.events.queued.isEmpty)
            let names = try await fixture.stack.store.timeline(playerId: "sam")
                .filter { $0.type == .clientEvent }.compactMap { $0.detail["name"] }
            for expected in ["purchase_started", "order_created", "store_purchased", "purchase_delivered"] {
                #expect(names.contains(expected), "\(expected) in \(names)")
            }
            await pipeline.stop()
        }
    }
}
