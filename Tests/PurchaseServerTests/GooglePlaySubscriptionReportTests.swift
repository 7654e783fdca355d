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
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
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

    @Test(
        "a subscription pushed as purchased is the order's player's entitlement; canceled it stays, revoked it ends",
        arguments: StoreKind.allCases)
    func notifiedSubscription(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: true, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "vip.monthly")
        let bought = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)
        await fixture.emulator.play.sendPendingNotifications()
        let token = bought.purchaseToken
        func entitlement() async throws -> Entitlement? {
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: token)
        }
        try await fixture.eventually("SUBSCRIPTION_PURCHASED delivers") { try await entitlement()?.state == .active }
        #expect(try await entitlement()?.playerId == "alice")
        #expect(try await entitlement()?.autoRenew == true)
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.source == .notification)
        let client = try #require(try await fixture.server.playAcknowledger?.client)
        #expect(
            try await client.subscriptionPurchaseV2(token: token).acknowledgementState
                == SubscriptionAcknowledgementState.acknowledged)

        // Canceled: still entitled until the period ends, no longer renewing.
        _ = try fixture.emulator.play.control(deviceId: "pixel", token: token, .cancel)
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("SUBSCRIPTION_CANCELED is recorded") {
            try await entitlement()?.autoRenew == false
        }
        #expect(try await entitlement()?.state == .active)

        // Revoked by the developer: ended now, its latest order refunded.
        try fixture.emulator.play.revokeSubscription(
            packageName: fixture.emulator.play.packageName, token: token,
            RevokeSubscriptionPurchaseRequest(revocationContext: RevocationContext(fullRefund: [:])))
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("SUBSCRIPTION_REVOKED ends it") { try await entitlement()?.state == .revoked }
        try await fixture.eventually("the voided order is refunded") {
            try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId)?.status == .refunded
        }
        #expect(try await entitlement()?.state == .revoked)
        // One order, delivered once, whatever came twice.
        #expect(try await fixture.store.purchases(store: .googlePlay, originalTransactionId: token).count == 1)
    }

    @Test(
        "a period that ends renews: each order delivered once, the entitlement extended; canceled, it expires at its end",
        arguments: StoreKind.allCases)
    func renewalAndExpiry(kind: StoreKind) async throws {
        // Google's clock stands still until the test moves it, so Google's real durations
        // hold (a 30-day period, three days to acknowledge) however slow the machine is.
        let clock = ManualClock(start: Date())
        let fixture = try await ServerFixture(
            kind, notifications: true, playKeys: true, subscriptionTimeScale: 1, playClock: clock)
        defer { Task { await fixture.shutdown() } }
        // Alice's subscription renews; Bob's, canceled at once, expires at its period's end.
        var bought: [String: PlayDevicePurchaseResult] = [:]
        for (player, device) in [("alice", "pixel"), ("bob", "tablet")] {
            let order = try await fixture.order(player, product: "vip.monthly")
            let purchase = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken, device: device)
            let reported = try await fixture.reportPlay(
                player, purchase, orderId: order.orderId, product: "vip.monthly")
            #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(player): \(reported)")
            bought[player] = purchase
        }
        let alice = try #require(bought["alice"])
        let bob = try #require(bought["bob"])
        func entitlement(_ purchase: PlayDevicePurchaseResult) async throws -> Entitlement? {
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: purchase.purchaseToken)
        }
        func googleExpiry(_ purchase: PlayDevicePurchaseResult) throws -> Date {
            try #require(try fixture.googleSubscription(purchase.purchaseToken).lineItems.first?.expiryDate)
        }
        _ = try fixture.emulator.play.control(deviceId: "tablet", token: bob.purchaseToken, .cancel)
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("SUBSCRIPTION_CANCELED") { try await entitlement(bob)?.autoRenew == false }
        #expect(try await entitlement(bob)?.state == .active, "canceled: entitled until the period ends")
        let bobsEnd = try googleExpiry(bob)
        let firstEnd = try googleExpiry(alice)
        #expect(sameMillisecond(try await entitlement(alice)?.until, firstEnd))
        #expect(abs(firstEnd.timeIntervalSince(clock.now) - 30 * 86_400) < 1, "a real 30-day period")

        // Past the period's end: reading Google's state renews Alice's (SUBSCRIPTION_RENEWED,
        // order ..0) and lapses Bob's (SUBSCRIPTION_EXPIRED), both pushed to the server.
        clock.advance(by: firstEnd.timeIntervalSince(clock.now) + 1)
        try await settlePlay(fixture, alice, bob)
        try await fixture.eventually("SUBSCRIPTION_RENEWED and SUBSCRIPTION_EXPIRED") {
            let renewed = try await entitlement(alice)?.transactionId == alice.orderId + "..0"
            let expired = try await entitlement(bob)?.state == .expired
            return renewed && expired
        }
        let secondEnd = try googleExpiry(alice)
        #expect(abs(secondEnd.timeIntervalSince(firstEnd) - 30 * 86_400) < 1)
        let renewed = try #require(try await entitlement(alice))
        #expect(renewed.state == .active)
        #expect(sameMillisecond(renewed.until, secondEnd))
        let lapsed = try #require(try await entitlement(bob))
        #expect(sameMillisecond(lapsed.until, bobsEnd), "Bob's ends where his period did")
        #expect(try fixture.googleSubscription(bob.purchaseToken).subscriptionState == SubscriptionState.expired)

        // Past the next end: order ..1.
        clock.advance(by: secondEnd.timeIntervalSince(clock.now) + 1)
        try await settlePlay(fixture, alice, bob)
        try await fixture.eventually("the second SUBSCRIPTION_RENEWED") {
            try await entitlement(alice)?.transactionId == alice.orderId + "..1"
        }
        #expect(sameMillisecond(try await entitlement(alice)?.until, try googleExpiry(alice)))
        #expect(try await entitlement(alice)?.state == .active)
        // Acknowledged in time: Google voided nothing.
        #expect(try fixture.googleSubscription(alice.purchaseToken).subscriptionState == SubscriptionState.active)

        let orders = try await fixture.store.purchases(store: .googlePlay, originalTransactionId: alice.purchaseToken)
        #expect(Set(orders.map(\.transactionId)) == [alice.orderId, alice.orderId + "..0", alice.orderId + "..1"])
        #expect(orders.allSatisfy { $0.playerId == "alice" && $0.status == .delivered })
        #expect(orders.filter { $0.transactionId != alice.orderId }.allSatisfy { $0.source == .notification })
        // Every order once, however often its notification came.
        for purchase in orders {
            let deliveries = try await fixture.store.events(transactionId: purchase.transactionId)
                .filter { $0.type == .delivered }
            #expect(deliveries.count == 1, "\(purchase.transactionId)")
        }
        #expect(
            try await fixture.store.purchases(store: .googlePlay, originalTransactionId: bob.purchaseToken).count == 1)
    }

    /// Whether `date` is `expected` to the millisecond (Google's and the ledger's precision).
    private func sameMillisecond(_ date: Date?, _ expected: Date) -> Bool {
        abs((date ?? .distantPast).timeIntervalSince(expected)) < 0.001
    }

    /// Reads Google's state of each purchase (which settles the periods that ended on the
    /// moved clock) and pushes the notifications that made.
    private func settlePlay(_ fixture: ServerFixture, _ purchases: PlayDevicePurchaseResult...) async throws {
        for purchase in purchases { _ = try fixture.googleSubscription(purchase.purchaseToken) }
        await fixture.emulator.play.sendPendingNotifications()
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

    @Test("Google's subscriptionState maps to the ledger's entitlement states")
    func standingOfGooglesState() {
        let end = Date(timeIntervalSince1970: 1_800_000_000)
        func standing(_ state: String, renews: Bool? = true, type: Int? = nil) -> SubscriptionEvidence.Standing? {
            let subscription = SubscriptionPurchaseV2(
                lineItems: [
                    SubscriptionPurchaseLineItem(
                        productId: "vip.monthly", autoRenewingPlan: AutoRenewingPlan(autoRenewEnabled: renews))
                ],
                subscriptionState: state, acknowledgementState: SubscriptionAcknowledgementState.acknowledged)
            return SubscriptionEvidence(
                googlePlay: subscription, expiresDate: end, notificationType: type, signedAt: end
            )
            .storeStanding
        }
        #expect(standing(SubscriptionState.active) == .init(state: .active, until: end, autoRenew: true))
        #expect(standing(SubscriptionState.canceled) == .init(state: .active, until: end, autoRenew: false))
        #expect(standing(SubscriptionState.inGracePeriod)?.state == .gracePeriod)
        #expect(standing(SubscriptionState.onHold)?.state == .billingRetry)
        #expect(standing(SubscriptionState.paused)?.state == .expired)
        #expect(standing(SubscriptionState.expired, renews: false)?.state == .expired)
        #expect(standing(SubscriptionState.expired, type: SubscriptionNotificationType.revoked)?.state == .revoked)
        #expect(standing(SubscriptionState.active, renews: nil)?.autoRenew == nil)
    }
}

extension ServerFixture {
    /// Google's subscription `token` as the emulator's Publisher API answers it (reading
    /// it settles the periods that ended).
    func googleSubscription(_ token: String) throws -> SubscriptionPurchaseV2 {
        try emulator.play.subscriptionPurchase(packageName: emulator.play.packageName, token: token)
    }
}
