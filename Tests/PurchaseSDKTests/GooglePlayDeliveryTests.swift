import Foundation
import PlayEmulator
import PurchaseSDK
import PurchaseSDKEmulator
import Testing

/// The whole path on Google Play: the pipeline buys on the emulator's Play side, the
/// DevStack's server verifies the `googlePlay` report with the emulator's Play Developer
/// API, delivers once to the order's player and then consumes or acknowledges at Google:
/// the app never does.
@Suite(.timeLimit(.minutes(3))) struct GooglePlayDeliveryTests {
    @Test func theServerDeliversAPlayPurchaseOnceThenConsumesItAtGoogle() async throws {
        try await withFixture { fixture in
            let store = PlayEmulatorStoreClient(
                baseURL: await fixture.stack.baseURL, deviceId: "uma-pixel", pollInterval: .milliseconds(50))
            let (pipeline, _) = await fixture.pipeline(player: "uma", device: "uma-pixel", shape: { _ in store })
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            guard case .delivered(let record) = outcome else {
                Issue.record("expected delivered, got \(outcome)")
                return
            }
            // The emulator's push (RTDN) may reach the server before the app's report: then the
            // report repeats that delivery. Either way the goods arrive once.
            #expect(["delivered", "already_delivered"].contains(record.delivery?.status))
            #expect(try await fixture.wallet("uma") == ["coins": 100])
            #expect(try await fixture.purchases("uma").map(\.transactionId) == [record.transactionId])
            // Consumed by the server: the device holds nothing, nothing is left unfinished.
            try await fixture.eventually("the server's consume at Google") {
                try fixture.stack.emulator.play.devicePurchases(deviceId: "uma-pixel").purchases.isEmpty
            }
            #expect(try await store.unfinishedTransactions().isEmpty)

            // Bought again: a second delivery, never the first one twice.
            guard case .delivered = try await pipeline.purchase(productId: "coins100") else {
                Issue.record("the second purchase was not delivered")
                return
            }
            #expect(try await fixture.wallet("uma") == ["coins": 200])
            await pipeline.stop()
        }
    }

    @Test func aPendingPlayPurchaseIsDeliveredByTheServerOncePaidAndAcknowledgedThere() async throws {
        try await withFixture { fixture in
            let store = PlayEmulatorStoreClient(
                baseURL: await fixture.stack.baseURL, deviceId: "vic-pixel", paysSlowly: true,
                pollInterval: .milliseconds(50))
            let (pipeline, _) = await fixture.pipeline(player: "vic", device: "vic-pixel", shape: { _ in store })
            try await pipeline.start()
            var outcomes = pipeline.outcomes.makeAsyncIterator()
            let asked = try await pipeline.purchase(productId: "levelpack1")
            guard case .pending = asked else {
                Issue.record("expected pending, got \(asked)")
                return
            }
            let held = try #require(
                try fixture.stack.emulator.play.devicePurchases(deviceId: "vic-pixel").purchases.first)
            #expect(try await fixture.purchases("vic").isEmpty)

            _ = try fixture.stack.emulator.play.control(deviceId: "vic-pixel", token: held.purchaseToken, .complete)
            var delivered: PurchaseRecord?
            while delivered == nil, let next = await outcomes.next() {
                if case .delivered(let record) = next { delivered = record }
            }
            let record = try #require(delivered)
            #expect(record.id == asked.record.id && record.transactionId == held.orderId)
            #expect(try await fixture.purchases("vic").map(\.transactionId) == [held.orderId])
            try await fixture.eventually("the server's acknowledgement at Google") {
                try await store.unfinishedTransactions().isEmpty
            }
            #expect(try await store.currentTransactions().map(\.productId) == ["levelpack1"])
            await pipeline.stop()
        }
    }
}

/// A restore on Google Play: the pipeline sends the Play store's current purchases to
/// `POST /v1/purchases/restore`, which reads each from Google and re-links it.
extension GooglePlayDeliveryTests {
    @Test func aRestoreSendsThePlayStoresCurrentPurchasesToTheServer() async throws {
        try await withFixture { fixture in
            let store = PlayEmulatorStoreClient(
                baseURL: await fixture.stack.baseURL, deviceId: "wes-pixel", pollInterval: .milliseconds(50))
            // Bought on the device with no order naming it and acknowledged there (so it is
            // no unfinished purchase a start reports): only a restore tells the server.
            let vip = try fixture.stack.emulator.play.purchase(
                deviceId: "wes-pixel", PlayDevicePurchaseRequest(productId: "vip.monthly"))
            _ = try fixture.stack.emulator.play.control(deviceId: "wes-pixel", token: vip.purchaseToken, .acknowledge)
            // A restore reads each purchase from Google in turn: past the fixture's usual 5 s on
            // a machine the whole suite keeps busy, the pipeline would time out and restore
            // again, and the second answer is rightly `already_owned`.
            let (pipeline, _) = await fixture.pipeline(
                player: "wes", device: "wes-pixel", timeout: 60, shape: { _ in store })
            try await pipeline.start()
            guard case .delivered = try await pipeline.purchase(productId: "levelpack1") else {
                Issue.record("the level pack was not delivered")
                return
            }
            #expect(try await fixture.purchases("wes").count == 1)
            let restored = try await pipeline.restore()
            #expect(
                Dictionary(uniqueKeysWithValues: restored.results.map { ($0.productId, $0.status.rawValue) })
                    == ["levelpack1": "already_owned", "vip.monthly": "restored"])
            #expect(try await fixture.purchases("wes").count == 2)
            await pipeline.stop()

            // Another game account on the same device: the purchases stay with Wes.
            let (other, _) = await fixture.pipeline(player: "yan", device: "wes-pixel", shape: { _ in store })
            try await other.start()
            let theirs = try await other.restore()
            #expect(theirs.results.map(\.status.rawValue) == ["kept_by_other_player", "kept_by_other_player"])
            #expect(try await fixture.purchases("yan").isEmpty)
            await other.stop()
        }
    }
}
