import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

/// Google Play's Real-time developer notifications, pushed by the emulator's Pub/Sub to
/// `POST /v1/notifications/google`, on both databases: a purchase bound to an order is
/// delivered and consumed without any report; one bound to nothing waits for the report; a
/// full refund is reversed; a push whose OIDC token fails a check is refused.
@Suite("Google Play notifications, end to end")
struct GooglePlayNotificationTests {
    @Test(
        "a pushed purchase is delivered to the order's player and consumed, no report needed",
        arguments: StoreKind.allCases)
    func pushedPurchaseDelivered(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: true, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        await fixture.emulator.play.sendPendingNotifications()

        try await fixture.eventually("the pushed purchase is delivered") {
            try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId) != nil
        }
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.playerId == "alice")
        #expect(purchase.source == .notification)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        try await fixture.eventually("consumed at Google") {
            try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed
        }
        // The app's report afterwards repeats the delivery.
        let report = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try report.decode(PurchaseReply.self).status == "already_delivered")

        // A full refund is pushed as a voided purchase and reversed.
        _ = try fixture.emulator.play.control(deviceId: "pixel", token: bought.purchaseToken, .refund)
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("the refund is reversed") { try await fixture.wallet("alice") == ["coins": 0] }
    }

    @Test("a pushed purchase bound to no order waits for the player's report")
    func unboundWaits() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: true, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let bought = try fixture.buyOnPlay(account: nil)
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("the purchase is owed") {
            try await fixture.store.events(transactionId: bought.orderId).contains { $0.type == .awaitingReport }
        }
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId) == nil)
        let report = try await fixture.reportPlay("bob", bought, orderId: nil)
        let reply = try report.decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.flags == ["unbound"])
    }

    @Test("a push without Google's token, with a forged one, or for another audience is refused")
    func forgedPushRefused() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let notification = DeveloperNotification(
            version: "1.0", packageName: "com.example.game", eventTimeMillis: "1700000000000",
            testNotification: TestNotification())
        let envelope = PubSubPushEnvelope(
            message: PubSubMessage(
                data: try JSONEncoder().encode(notification).base64EncodedString(), messageId: "1",
                publishTime: "2026-01-01T00:00:00.000Z"),
            subscription: "projects/p/subscriptions/s")
        let body = try JSONEncoder().encode(envelope)
        let url = await fixture.stack.baseURL.appendingPathComponent("v1/notifications/google")

        let missing = try await fixture.send(.post, "/v1/notifications/google", body: body)
        #expect(missing.status == 401, "\(missing)")
        let forged = try await fixture.send(
            .post, "/v1/notifications/google", credential: "eyJhbGciOiJSUzI1NiIsImtpZCI6IngifQ.e30.c2ln", body: body)
        #expect(forged.status == 401)
        #expect(forged.code == "invalid_push_token")

        // Google's own token, for the configured audience: accepted.
        let audience = fixture.stack.configuration.googlePlay?.pushAudience
        try await fixture.emulator.play.setPushConfiguration(PlayPushConfiguration(url: url, audience: audience))
        let good = try #require(fixture.emulator.play.pushHeaders(for: url)["Authorization"])
        let accepted = try await fixture.send(
            .post, "/v1/notifications/google", credential: String(good.dropFirst("Bearer ".count)), body: body)
        #expect(accepted.status == 200, "\(accepted)")
        #expect(accepted.code == nil)

        // Signed by Google's key, for another audience: refused.
        try await fixture.emulator.play.setPushConfiguration(PlayPushConfiguration(url: url, audience: "https://other"))
        let other = try #require(fixture.emulator.play.pushHeaders(for: url)["Authorization"])
        let refused = try await fixture.send(
            .post, "/v1/notifications/google", credential: String(other.dropFirst("Bearer ".count)), body: body)
        #expect(refused.status == 401)
        #expect(refused.code == "invalid_push_token")
    }
}
