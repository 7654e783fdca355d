import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import PurchaseServer
import Testing

@testable import PurchaseServer

/// Google Play's voided purchases through the ledger's one refund path, on both databases:
/// quantity-based partial refunds take back their units' share and a full void the rest,
/// each change reaching the webhook once; a void whose push was lost is applied by the
/// reconciler from `voidedpurchases.list`; the same void again changes nothing.
@Suite("Google Play voided purchases, end to end")
struct GooglePlayVoidTests {
    @Test(
        "partial refunds by quantity and a full void take back the right amounts, each once, on the webhook",
        arguments: StoreKind.allCases)
    func partialAndFullVoids(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: true, playKeys: true, subscriptionTimeScale: 1) {
            $0.webhook = WebhookSettings(url: URL(string: "http://apple.dev/test/webhook")!, secret: "secret")
        }
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.emulator.play.purchase(
            deviceId: "pixel",
            PlayDevicePurchaseRequest(productId: "coins100", obfuscatedAccountId: order.appAccountToken, quantity: 4))
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("the purchase is delivered") {
            try await fixture.wallet("alice") == ["coins": 400]
        }

        // One unit, another, then the rest: Google lists each refund on its own.
        let steps: [(quantity: Int?, share: Int, coins: Int64)] = [
            (1, 25_000, 300), (1, 50_000, 200), (nil, RefundShare.whole, 0),
        ]
        for step in steps {
            _ = try fixture.emulator.play.control(
                deviceId: "pixel", token: bought.purchaseToken, .refund,
                refund: PlayDeviceRefundRequest(quantity: step.quantity))
            await fixture.emulator.play.sendPendingNotifications()
            try await fixture.eventually("the ledger at \(step.share)") {
                try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId)?.refundedShare
                    == step.share
            }
            #expect(try await fixture.wallet("alice") == ["coins": step.coins], "at share \(step.share)")
        }
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.status == .refunded)

        // The reconciler lists the same three voids: nothing changes.
        let report = try await #require(try await fixture.server.reconciler).run()
        #expect(report.playVoidsFetched == 3)
        #expect(report.playVoidsRejected == 0)
        #expect(try await fixture.wallet("alice") == ["coins": 0])

        // The game server received the delivery and each refund once.
        #expect(try await fixture.server.postDueDeliveries() == 4)
        let posts = await fixture.webhook.posts
        // Play's keys name their store: Apple's and Google's ids never share a namespace.
        let key = "google_play:\(bought.orderId)"
        #expect(posts.map(\.idempotencyKey) == [key] + (1...3).map { "\(key):refund:\($0)" })
        let refunds = try posts.dropFirst().map { try RefundMessage.decode($0.body) }
        #expect(refunds.map(\.kind) == ["refund", "refund", "refund"])
        #expect(refunds.map(\.grants) == [["coins": -100], ["coins": -100], ["coins": -200]])
        #expect(refunds.map(\.refundedShare) == [25_000, 50_000, RefundShare.whole])
        #expect(refunds.allSatisfy { $0.playerId == "alice" && $0.orderId == order.orderId })
    }

    @Test("a void whose notification was lost is applied by the reconciler, once", arguments: StoreKind.allCases)
    func reconcilerAppliesLostVoid(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.emulator.play.purchase(
            deviceId: "pixel",
            PlayDevicePurchaseRequest(productId: "coins100", obfuscatedAccountId: order.appAccountToken, quantity: 2))
        let reported = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try reported.decode(PurchaseReply.self).status == "delivered")
        _ = try fixture.emulator.play.control(
            deviceId: "pixel", token: bought.purchaseToken, .refund, refund: PlayDeviceRefundRequest(quantity: 1))
        #expect(try await fixture.wallet("alice") == ["coins": 200])

        let reconciler = try #require(try await fixture.server.reconciler)
        let first = try await reconciler.run()
        #expect(first.playVoidsFetched == 1)
        #expect(first.playVoidsSettled == 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.refundedShare == 50_000)
        #expect(purchase.status == .delivered)

        _ = try await reconciler.run()
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        let refunded = try await fixture.store.events(transactionId: bought.orderId).filter { $0.type == .refunded }
        #expect(refunded.count == 1)
    }

    @Test(
        "a non-consumable bought on Play is an entitlement of the player through the product path; its void refunds it",
        arguments: StoreKind.allCases)
    func nonConsumableEntitlement(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: true, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "levelpack1")
        let bought = try fixture.buyOnPlay(product: "levelpack1", account: order.appAccountToken)
        let reported = try await fixture.reportPlay("alice", bought, orderId: order.orderId, product: "levelpack1")
        #expect(try reported.decode(PurchaseReply.self).status == "delivered")
        let entitlement = try #require(
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: bought.purchaseToken))
        #expect(entitlement.playerId == "alice")
        #expect(entitlement.entitlementId == "levelpack1")
        #expect(entitlement.state == .active)
        #expect(entitlement.until == nil)
        #expect(entitlement.transactionId == bought.orderId)
        // Acknowledged, not consumed: the player keeps owning it at Google.
        try await fixture.eventually("acknowledged at Google") {
            try fixture.googleSays(bought).acknowledgementState == AcknowledgementState.acknowledged
        }
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.yetToBeConsumed)

        _ = try fixture.emulator.play.control(deviceId: "pixel", token: bought.purchaseToken, .refund)
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("the entitlement is refunded") {
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: bought.purchaseToken)?
                .state == .refunded
        }
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.status == .refunded)
    }

    @Test("the refunded share of a partial refund is Google's refunded units over the quantity")
    func refundedShare() {
        #expect(PlayVoidSettler.refundedShare(quantity: 4, refundable: 3) == 25_000)
        #expect(PlayVoidSettler.refundedShare(quantity: 3, refundable: 1) == 66_666)
        #expect(PlayVoidSettler.refundedShare(quantity: 2, refundable: 0) == RefundShare.whole)
        #expect(PlayVoidSettler.refundedShare(quantity: 2, refundable: nil) == nil)
        #expect(PlayVoidSettler.refundedShare(quantity: 2, refundable: 3) == nil)
        #expect(PlayVoidSettler.refundedShare(quantity: 2, refundable: -1) == nil)
        #expect(PlayVoidSettler.refundedShare(quantity: 0, refundable: 0) == nil)
    }
}
