import Foundation
import GooglePlayAPI
import PlayEmulator
import PlayModel
import Testing

@testable import PurchaseServer

/// The server's Play Developer API client for subscriptions, against the emulator:
/// `purchases.subscriptionsv2.get` reads Google's `SubscriptionPurchaseV2` and
/// `purchases.subscriptions.acknowledge` acknowledges it; an unknown token is Google's
/// 404.
@Suite("Google Play subscriptions API client")
struct GooglePlaySubscriptionAPITests {
    @Test("subscriptionsv2.get reads a subscription bought on the device; acknowledge acknowledges it")
    func getAndAcknowledge() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let client = try #require(try await fixture.server.playAcknowledger?.client)
        let order = try await fixture.order("alice", product: "vip.monthly")
        let bought = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)

        let subscription = try await client.subscriptionPurchaseV2(token: bought.purchaseToken)
        #expect(subscription.kind == SubscriptionPurchaseV2.kindValue)
        #expect(subscription.subscriptionState == SubscriptionState.active)
        #expect(subscription.acknowledgementState == SubscriptionAcknowledgementState.pending)
        #expect(subscription.latestOrderId == bought.orderId)
        #expect(subscription.lineItems.map(\.productId) == ["vip.monthly"])
        #expect(subscription.lineItems.first?.expiryTime != nil)
        #expect(subscription.externalAccountIdentifiers?.obfuscatedExternalAccountId == order.appAccountToken)

        try await client.acknowledgeSubscriptionPurchase(subscriptionId: "vip.monthly", token: bought.purchaseToken)
        let acknowledged = try await client.subscriptionPurchaseV2(token: bought.purchaseToken)
        #expect(acknowledged.acknowledgementState == SubscriptionAcknowledgementState.acknowledged)

        let unknown = await #expect(throws: GooglePlayAPIError.self) {
            try await client.subscriptionPurchaseV2(token: "no-such-token")
        }
        #expect(unknown?.isNotFound == true)
    }
}
