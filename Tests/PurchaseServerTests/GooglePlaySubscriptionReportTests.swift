import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

@testable import PurchaseServer

/// A Google Play subscription reported by the app, on both databases: read from
/// `purchases.subscriptionsv2`, delivered once as its latest order, the player's
/// entitlement until Google's expiry, keyed by the purchase token, and acknowledged at
/// Google with `purchases.subscriptions.acknowledge`.
@Suite("Google Play subscription reports")
struct GooglePlaySubscriptionReportTests {
    @Test(
        "a reported subscription is the player's entitlement until Google's expiry, acknowledged",
        arguments: StoreKind.allCases)
    func reportedSubscription(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "vip.monthly")
        let bought = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)
        let client = try #require(try await fixture.server.playAcknowledger?.client)
        let google = try await client.subscriptionPurchaseV2(token: bought.purchaseToken)
        let expiry = try #require(google.lineItems.first?.expiryDate)

        let reported = try await fixture.reportPlay("alice", bought, orderId: order.orderId, product: "vip.monthly")
        #expect(reported.status == 200, "\(reported)")
        #expect(try reported.decode(PurchaseReply.self).status == "delivered")
        let entitlement = try #require(
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: bought.purchaseToken))
        #expect(entitlement.playerId == "alice")
        #expect(entitlement.entitlementId == "vip")
        #expect(entitlement.state == .active)
        #expect(entitlement.transactionId == bought.orderId)
        #expect(abs((entitlement.until ?? .distantPast).timeIntervalSince(expiry)) < 0.001)
        let acknowledged = try await client.subscriptionPurchaseV2(token: bought.purchaseToken)
        #expect(acknowledged.acknowledgementState == SubscriptionAcknowledgementState.acknowledged)

        // Again: the same delivery, nothing more.
        let again = try await fixture.reportPlay("alice", bought, orderId: order.orderId, product: "vip.monthly")
        #expect(try again.decode(PurchaseReply.self).status == "already_delivered")
        #expect(
            try await fixture.store.purchases(store: .googlePlay, originalTransactionId: bought.purchaseToken).count
                == 1)
    }

    @Test("Google's subscription becomes the transaction of its latest order; a pending one is not delivered")
    func transactionOfGooglesAnswer() throws {
        let item = SubscriptionPurchaseLineItem(productId: "vip.monthly", expiryTime: "2026-02-01T00:00:00.000Z")
        var subscription = SubscriptionPurchaseV2(
            lineItems: [item], startTime: "2026-01-01T00:00:00Z", subscriptionState: SubscriptionState.active,
            latestOrderId: "GPA.1234-5678-9012-34567..2",
            acknowledgementState: SubscriptionAcknowledgementState.pending,
            externalAccountIdentifiers: ExternalAccountIdentifiers(obfuscatedExternalAccountId: "ABC"))
        let report = GooglePlayReport(
            productId: "vip.monthly", purchaseToken: "token-1", orderId: "GPA.1234-5678-9012-34567")
        let transaction = try PlayPurchaseVerifier.transaction(
            subscription, report: report, allowedEnvironments: [.production])
        #expect(transaction.transactionId == "GPA.1234-5678-9012-34567..2")
        #expect(transaction.originalTransactionId == "token-1")
        #expect(transaction.appAccountToken == "abc")
        #expect(transaction.expiresDate == Date(timeIntervalSince1970: 1_769_904_000))
        #expect(transaction.environment == .production)

        #expect(throws: DeliveryRefusal.self) {
            try PlayPurchaseVerifier.transaction(
                subscription,
                report: GooglePlayReport(productId: "vip.monthly", purchaseToken: "token-1", orderId: "GPA.9999-0000"),
                allowedEnvironments: [.production])
        }
        #expect(throws: DeliveryRefusal.self) {
            try PlayPurchaseVerifier.transaction(
                subscription, report: GooglePlayReport(productId: "coins100", purchaseToken: "token-1", orderId: nil),
                allowedEnvironments: [.production])
        }
        subscription.subscriptionState = SubscriptionState.pending
        let pending = #expect(throws: DeliveryRefusal.self) {
            try PlayPurchaseVerifier.transaction(subscription, report: report, allowedEnvironments: [.production])
        }
        #expect(pending?.kind == .pending)
    }
}
