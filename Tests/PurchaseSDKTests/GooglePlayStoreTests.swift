import Foundation
import PlayEmulator
import PurchaseSDK
import PurchaseSDKEmulator
import Synchronization
import Testing

/// `PlayEmulatorStoreClient` on the emulator's Google Play side: a purchase is made with the
/// order's token as `obfuscatedAccountId`, reported to the server as `googlePlay` with its
/// purchase token, and never acknowledged by the app; a pending purchase is delivered once
/// paid; `queryPurchasesAsync`'s unacknowledged purchases are the unfinished transactions.
/// The server's side is stood in for by ``ReportRecorder``, which answers the reports.
@Suite(.timeLimit(.minutes(3))) struct GooglePlayStoreTests {
    @Test func aPurchaseIsReportedAsGooglePlayWithItsTokenAndLeftForTheServerToAcknowledge() async throws {
        try await withFixture { fixture in
            let store = PlayEmulatorStoreClient(
                baseURL: await fixture.stack.baseURL, deviceId: "pia-pixel", pollInterval: .milliseconds(50))
            let recorder = Mutex<ReportRecorder?>(nil)
            let (pipeline, _) = await fixture.pipeline(
                player: "pia", device: "pia-pixel", shape: { _ in store },
                serverTransport: { base in
                    let made = ReportRecorder(wrapping: base)
                    recorder.withLock { $0 = made }
                    return made
                })
            let reports = try #require(recorder.withLock { $0 })
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "levelpack1")
            guard case .delivered(let record) = outcome else {
                Issue.record("expected delivered, got \(outcome)")
                return
            }

            let held = try fixture.stack.emulator.play.devicePurchases(deviceId: "pia-pixel").purchases
            let purchase = try #require(held.first)
            #expect(held.count == 1)
            let purchaseJSON = try #require(
                try JSONSerialization.jsonObject(with: Data(purchase.originalJson.utf8)) as? [String: Any])
            #expect(purchaseJSON["obfuscatedAccountId"] as? String == record.appAccountToken)
            #expect(record.appAccountToken != nil)

            let bodies = try reports.bodies()
            #expect(bodies.count == 1)
            let body = try #require(bodies.first)
            #expect(body["orderId"] as? String == record.orderId)
            #expect(body["orderId"] != nil)
            let googlePlay = try #require(body["googlePlay"] as? [String: Any])
            #expect(googlePlay["productId"] as? String == "levelpack1")
            #expect(googlePlay["purchaseToken"] as? String == purchase.purchaseToken)
            #expect(googlePlay["orderId"] as? String == purchase.orderId)
            #expect(body["signedTransaction"] == nil && body["receipt"] == nil && body["transactionId"] == nil)

            #expect(record.transactionId == purchase.orderId)
            let journaled = try await FilePurchaseJournal(url: fixture.journalURL(device: "pia-pixel")).load().records
            #expect(
                journaled.first { $0.id == record.id }?.googlePlay
                    == GooglePlayPurchase(
                        productId: "levelpack1", purchaseToken: purchase.purchaseToken, orderId: purchase.orderId))
            try await fixture.eventually("the finish journaled") {
                await pipeline.allRecords().first { $0.id == record.id }?.state == .finished
            }

            // The app finished the order but left the purchase to the server: unacknowledged.
            #expect(purchaseJSON["acknowledged"] as? Bool == false)
            let unfinished = try await store.unfinishedTransactions()
            #expect(unfinished.map(\.googlePlay?.purchaseToken) == [purchase.purchaseToken])
            _ = try fixture.stack.emulator.play.control(
                deviceId: "pia-pixel", token: purchase.purchaseToken, .acknowledge)
            #expect(try await store.unfinishedTransactions().isEmpty)
            #expect(try await store.currentTransactions().map(\.productId) == ["levelpack1"])
            await pipeline.stop()
        }
    }

    @Test func aPendingPurchaseIsPendingUntilPaidThenReportedWithItsToken() async throws {
        try await withFixture { fixture in
            let store = PlayEmulatorStoreClient(
                baseURL: await fixture.stack.baseURL, deviceId: "raj-pixel", paysSlowly: true,
                pollInterval: .milliseconds(50))
            let recorder = Mutex<ReportRecorder?>(nil)
            let (pipeline, _) = await fixture.pipeline(
                player: "raj", device: "raj-pixel", shape: { _ in store },
                serverTransport: { base in
                    let made = ReportRecorder(wrapping: base)
                    recorder.withLock { $0 = made }
                    return made
                })
            let reports = try #require(recorder.withLock { $0 })
            try await pipeline.start()
            var outcomes = pipeline.outcomes.makeAsyncIterator()
            let asked = try await pipeline.purchase(productId: "coins100")
            guard case .pending = asked else {
                Issue.record("expected pending, got \(asked)")
                return
            }
            let held = try #require(
                try fixture.stack.emulator.play.devicePurchases(deviceId: "raj-pixel").purchases.first)
            #expect(held.purchaseState == 2)
            #expect(try await store.unfinishedTransactions().isEmpty)
            #expect(try reports.bodies().isEmpty)

            _ = try fixture.stack.emulator.play.control(deviceId: "raj-pixel", token: held.purchaseToken, .complete)
            // The outcomes stream the pending answer first, then the delivery.
            var delivered: PurchaseRecord?
            while delivered == nil, let next = await outcomes.next() {
                if case .delivered(let record) = next { delivered = record }
            }
            let record = try #require(delivered)
            #expect(record.id == asked.record.id)
            let googlePlay = try #require(try reports.bodies().first?["googlePlay"] as? [String: Any])
            #expect(googlePlay["purchaseToken"] as? String == held.purchaseToken)
            #expect(googlePlay["productId"] as? String == "coins100")
            await pipeline.stop()
        }
    }

    @Test func queryPurchasesUnacknowledgedAreUnfinishedAndConsumablesAreNeverCurrent() async throws {
        try await withFixture { fixture in
            let store = PlayEmulatorStoreClient(baseURL: await fixture.stack.baseURL, deviceId: "sol-pixel")
            let token = UUID().uuidString.lowercased()
            guard
                case .purchased(let coins) = try await store.purchase(
                    productId: "coins100", appAccountToken: token, quantity: 1),
                case .purchased(let pack) = try await store.purchase(
                    productId: "levelpack1", appAccountToken: token, quantity: 1)
            else {
                Issue.record("expected two purchases")
                return
            }
            #expect(coins.appAccountToken == token && coins.googlePlay?.orderId == coins.transactionId)
            #expect(coins.signedTransaction == nil)
            #expect(Set(try await store.unfinishedTransactions()) == [coins, pack])
            #expect(try await store.currentTransactions() == [pack])

            _ = try fixture.stack.emulator.play.control(
                deviceId: "sol-pixel", token: try #require(coins.googlePlay?.purchaseToken), .consume)
            #expect(try await store.unfinishedTransactions() == [pack])
            #expect(try await store.receipt(refresh: true) == nil)
            await #expect(throws: EmulatorClientError.self) {
                _ = try await store.purchase(productId: "levelpack1", appAccountToken: token, quantity: 1)
            }
        }
    }
}
