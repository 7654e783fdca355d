import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

@testable import PurchaseServer

/// A Google Play renewal whose payment is declined, end to end on both databases, on a Play
/// clock the test moves: the entitlement follows Google through the grace period
/// (`grace_period`) and the account hold (`billing_retry`), then is active again with the
/// recovered order delivered once (and renews on), or expired at the hold's end.
@Suite("Google Play payment recovery, end to end")
struct GooglePlayPaymentRecoveryTests {
    @Test(
        "a declined renewal: grace period, account hold, then recovered with a new order or expired",
        arguments: StoreKind.allCases)
    func declinedRenewal(kind: StoreKind) async throws {
        let clock = ManualClock(start: Date())
        let fixture = try await ServerFixture(
            kind, notifications: true, playKeys: true, subscriptionTimeScale: 1, playClock: clock)
        defer { Task { await fixture.shutdown() } }
        // Alice fixes her payment while on hold; Bob never does.
        var bought: [String: PlayDevicePurchaseResult] = [:]
        for (player, device) in [("alice", "pixel"), ("bob", "tablet")] {
            let order = try await fixture.order(player, product: "vip.monthly")
            let purchase = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken, device: device)
            let reported = try await fixture.reportPlay(
                player, purchase, orderId: order.orderId, product: "vip.monthly")
            #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(player): \(reported)")
            _ = try fixture.emulator.play.control(deviceId: device, token: purchase.purchaseToken, .declinePayment)
            bought[player] = purchase
        }
        let alice = try #require(bought["alice"])
        let bob = try #require(bought["bob"])
        func entitlement(_ purchase: PlayDevicePurchaseResult) async throws -> Entitlement? {
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: purchase.purchaseToken)
        }
        func google(_ purchase: PlayDevicePurchaseResult) throws -> SubscriptionPurchaseV2 {
            try fixture.googleSubscription(purchase.purchaseToken)
        }
        func settle() async throws {
            for purchase in [alice, bob] { _ = try google(purchase) }
            await fixture.emulator.play.sendPendingNotifications()
        }
        let periodEnd = try #require(try google(alice).lineItems.first?.expiryDate)

        // The renewal fails: in the grace period (16 days for vip.monthly), still entitled.
        clock.advance(by: periodEnd.timeIntervalSince(clock.now) + 1)
        try await settle()
        try await fixture.eventually("SUBSCRIPTION_IN_GRACE_PERIOD") {
            let states = [try await entitlement(alice)?.state, try await entitlement(bob)?.state]
            return states == [.gracePeriod, .gracePeriod]
        }
        let graceEnd = try #require(try google(alice).lineItems.first?.expiryDate)
        #expect(abs(graceEnd.timeIntervalSince(periodEnd) - 16 * 86_400) < 0.001)
        #expect(abs((try await entitlement(alice)?.until ?? .distantPast).timeIntervalSince(graceEnd)) < 0.001)

        // The grace period ends unpaid: on hold, no access.
        clock.advance(by: graceEnd.timeIntervalSince(clock.now) + 1)
        try await settle()
        try await fixture.eventually("SUBSCRIPTION_ON_HOLD") {
            let states = [try await entitlement(alice)?.state, try await entitlement(bob)?.state]
            return states == [.billingRetry, .billingRetry]
        }

        // Alice's payment works again: a new order, delivered once, active for a new period.
        _ = try fixture.emulator.play.control(deviceId: "pixel", token: alice.purchaseToken, .fixPayment)
        await fixture.emulator.play.sendPendingNotifications()
        try await fixture.eventually("SUBSCRIPTION_RECOVERED") {
            try await entitlement(alice)?.transactionId == alice.orderId + "..0"
        }
        let recovered = try #require(try await entitlement(alice))
        #expect(recovered.state == .active)
        let newEnd = try #require(try google(alice).lineItems.first?.expiryDate)
        #expect(abs((recovered.until ?? .distantPast).timeIntervalSince(newEnd)) < 0.001)
        let renewal = try #require(
            try await fixture.store.purchase(store: .googlePlay, transactionId: alice.orderId + "..0"))
        #expect(renewal.playerId == "alice")
        #expect(renewal.source == .notification)

        // Bob's hold ends unpaid: expired, nothing more delivered to him; Alice's, paid again,
        // renews at the end of its new period.
        clock.advance(by: 30 * 86_400)
        try await settle()
        try await fixture.eventually("SUBSCRIPTION_EXPIRED and SUBSCRIPTION_RENEWED") {
            let expired = try await entitlement(bob)?.state == .expired
            let renewed = try await entitlement(alice)?.transactionId == alice.orderId + "..1"
            return expired && renewed
        }
        #expect(try google(bob).subscriptionState == SubscriptionState.expired)
        #expect(
            try await fixture.store.purchases(store: .googlePlay, originalTransactionId: bob.purchaseToken).count == 1)
        let orders = try await fixture.store.purchases(store: .googlePlay, originalTransactionId: alice.purchaseToken)
        #expect(Set(orders.map(\.transactionId)) == [alice.orderId, alice.orderId + "..0", alice.orderId + "..1"])
        for purchase in orders {
            let deliveries = try await fixture.store.events(transactionId: purchase.transactionId)
                .filter { $0.type == .delivered }
            #expect(deliveries.count == 1, "\(purchase.transactionId)")
        }
    }
}
