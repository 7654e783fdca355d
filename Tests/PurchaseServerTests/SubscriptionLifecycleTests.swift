import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

@testable import PurchaseServer

/// An auto-renewable subscription through its life, end to end: the emulator acts as
/// Apple (renewals, billing failures, plan changes, refunds) and posts its notifications;
/// the player's entitlement follows.
@Suite("Subscription lifecycle, end to end")
struct SubscriptionLifecycleTests {
    /// Buys `product` for alice on her phone and waits for the SUBSCRIBED notification:
    /// the chain's original transaction id.
    private func subscribe(_ fixture: ServerFixture, _ product: String = "vip.monthly") async throws -> String {
        let paid = try await fixture.buy("alice", product)
        await fixture.emulator.waitForNotificationDeliveries()
        return try #require(paid.transactionId)
    }

    /// Makes alice's payment method fail, so that the emulator's renewal clock leaves a
    /// chain in billing retry to the test (it recovers one when billing works).
    private func failBilling(_ fixture: ServerFixture) async throws {
        _ = try await fixture.emulator.updateDevice("phone", settings: DeviceSettings(billingFails: true))
    }

    /// Waits until alice's vip entitlement satisfies `condition`, and returns it.
    private func vip(
        _ fixture: ServerFixture, _ what: String, _ condition: @escaping (EntitlementReply) -> Bool
    ) async throws -> EntitlementReply {
        try await fixture.eventually(what) { condition(try await fixture.entitlement("alice", "vip")) }
        return try await fixture.entitlement("alice", "vip")
    }

    @Test("a renewal's notification moves the entitlement to the new period, once", arguments: StoreKind.allCases)
    func renewal(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        let renewal = try await fixture.emulator.renewSubscription(originalTransactionId: original)
        let vip = try await vip(fixture, "the renewal") { $0.transactionId == renewal.transactionId }
        #expect(vip.until == renewal.expiresDate)
        #expect(vip.state == "active")
        #expect(vip.entitled)
        #expect(vip.originalTransactionId == original)
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: renewal.transactionId)?.playerId
                == "alice")
        // The app reports the unfinished renewal later: already delivered.
        let unfinished = try await fixture.emulator.restore(deviceId: "phone")
        let signed = try #require(unfinished.first { $0.transactionId == renewal.transactionId }?.signedTransaction)
        let reply = try await fixture.report("alice", signedTransaction: signed).decode(PurchaseReply.self)
        #expect(reply.status == "already_delivered")
    }

    @Test(
        "a renewal whose notification was lost for good is found by the reconciler in the subscription statuses",
        arguments: StoreKind.allCases)
    func lostRenewal(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.buy("alice", "vip.monthly")
        let original = try #require(paid.transactionId)
        let renewal = try await fixture.emulator.renewSubscription(originalTransactionId: original)
        // Apple's history has lost it too: only Get All Subscription Statuses can tell.
        let reconciler = try await fixture.reconciler(holder: "test") { _ in
            HTTPResponseData(status: 200, body: Data(#"{"notificationHistory": [], "hasMore": false}"#.utf8))
        }
        let before = try await fixture.entitlement("alice", "vip")
        #expect(before.transactionId == original)
        let afterFirstPeriod = Date(timeIntervalSince1970: Double(try #require(before.until)) / 1_000 + 60)
        let report = try await reconciler.run(now: afterFirstPeriod)
        #expect(report.subscriptionsChecked == 1)
        #expect(report.subscriptionsUpdated == 1)
        #expect(report.subscriptionFailures == 0)
        let vip = try await fixture.entitlement("alice", "vip")
        #expect(vip.transactionId == renewal.transactionId)
        #expect(vip.until == renewal.expiresDate)
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: renewal.transactionId)?.source
                == .reconciler)
        let changes = try await fixture.store.timeline(playerId: "alice").filter { $0.type == .entitlementChanged }
        #expect(changes.last?.detail["reason"] == "reconciler")
        // In line now: the next pass finds nothing lapsed.
        #expect(try await reconciler.run(now: afterFirstPeriod).subscriptionsChecked == 0)
    }

    @Test(
        "a lapsed chain Apple does not answer for is postponed, so it cannot hold the reconciler's queue",
        arguments: StoreKind.allCases)
    func unansweredChainIsPostponed(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.buy("alice", "vip.monthly")
        _ = try #require(paid.transactionId)
        let reconciler = try await fixture.reconciler(holder: "test", intercepting: "/subscriptions/") { _ in
            HTTPResponseData(status: 500, body: Data(#"{"errorCode": 5000000, "errorMessage": "down"}"#.utf8))
        }
        let before = try await fixture.entitlement("alice", "vip")
        let lapsed = Date(timeIntervalSince1970: Double(try #require(before.until)) / 1_000 + 60)
        let report = try await reconciler.run(now: lapsed)
        #expect(report.subscriptionsChecked == 1 && report.subscriptionFailures == 1)
        #expect(report.subscriptionsPostponed == 1)
        #expect(try await reconciler.run(now: lapsed).subscriptionsChecked == 0, "postponed for a minute")
        let later = try await reconciler.run(now: lapsed.addingTimeInterval(61))
        #expect(later.subscriptionsChecked == 1 && later.subscriptionsPostponed == 1)
        #expect(
            try await reconciler.run(now: lapsed.addingTimeInterval(61 + 61)).subscriptionsChecked == 0,
            "then for two")
    }

    @Test("billing retry with a grace period keeps the player entitled; recovery renews", arguments: StoreKind.allCases)
    func graceThenRecover(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        let first = try await fixture.entitlement("alice", "vip")
        try await failBilling(fixture)
        let failing = try await fixture.emulator.failRenewal(originalTransactionId: original, gracePeriod: true)
        let grace = try await vip(fixture, "the grace period") { $0.state == "grace_period" }
        #expect(grace.entitled)
        let graceEnd = try #require(failing.gracePeriodExpiresDate)
        #expect(grace.until == graceEnd, "until the grace period's end")
        #expect(graceEnd > (first.until ?? .max))
        let recovered = try await fixture.emulator.recoverSubscription(originalTransactionId: original)
        let vip = try await vip(fixture, "the recovery") { $0.transactionId == recovered.transactionId }
        #expect(vip.state == "active")
        #expect(vip.until == recovered.expiresDate)
        #expect(vip.entitled)
    }

    @Test("the grace period ends in billing retry, then the subscription expires", arguments: StoreKind.allCases)
    func graceExpiredThenExpired(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        try await failBilling(fixture)
        try await fixture.emulator.failRenewal(originalTransactionId: original, gracePeriod: true)
        _ = try await vip(fixture, "the grace period") { $0.state == "grace_period" }
        try await fixture.emulator.expireGracePeriod(originalTransactionId: original)
        let retry = try await vip(fixture, "billing retry") { $0.state == "billing_retry" }
        #expect(!retry.entitled)
        try await fixture.emulator.expireSubscription(originalTransactionId: original)
        let expired = try await vip(fixture, "the expiry") { $0.state == "expired" }
        #expect(!expired.entitled)
    }

    @Test(
        "another game account that pays to resubscribe on the same Apple account gets the period and the chain",
        arguments: StoreKind.allCases)
    func resubscribeByAnotherPlayer(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        try await fixture.emulator.setAutoRenew(deviceId: "phone", originalTransactionId: original, enabled: false)
        try await fixture.emulator.expireSubscription(originalTransactionId: original)
        _ = try await vip(fixture, "the expiry") { $0.state == "expired" }

        // Bob signs in on alice's phone (the same Apple account) and orders and pays.
        let paid = try await fixture.buy("bob", "vip.monthly")
        let payload = try fixture.decodedTransaction(try #require(paid.signedTransaction))
        #expect(payload.originalTransactionId == original, "a resubscribe continues the chain")
        try await fixture.eventually("bob holds vip") { try await fixture.entitlement("bob", "vip").entitled }
        let held = try await fixture.entitlement("bob", "vip")
        #expect(held.transactionId == payload.transactionId)
        #expect(try await fixture.entitlements("alice").filter { $0.entitlementId == "vip" }.isEmpty)
    }

    @Test("a voluntary cancel keeps the period; the expiry ends it", arguments: StoreKind.allCases)
    func voluntaryCancel(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        try await fixture.emulator.setAutoRenew(deviceId: "phone", originalTransactionId: original, enabled: false)
        let cancelled = try await vip(fixture, "renewal off") { $0.autoRenew == false }
        #expect(cancelled.entitled, "paid until the period ends")
        #expect(cancelled.state == "active")
        try await fixture.emulator.expireSubscription(originalTransactionId: original)
        let expired = try await vip(fixture, "the expiry") { $0.state == "expired" }
        #expect(!expired.entitled)
    }

    @Test(
        "an upgrade switches the product at once; the old period's prorated refund leaves it entitled",
        arguments: StoreKind.allCases)
    func upgrade(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        try await fixture.emulator.changeSubscription(
            deviceId: "phone", originalTransactionId: original, productId: "vip.premium")
        let vip = try await vip(fixture, "the upgrade") { $0.productId == "vip.premium" }
        await fixture.emulator.waitForNotificationDeliveries()
        let settled = try await fixture.entitlement("alice", "vip")
        #expect(settled.productId == "vip.premium")
        #expect(settled.transactionId == vip.transactionId)
        #expect(settled.transactionId != original)
        #expect(settled.state == "active")
        #expect(settled.entitled)
        #expect(try await fixture.entitlements("alice").count == 1, "one chain, one entitlement")
    }

    @Test("a downgrade takes effect at the next renewal", arguments: StoreKind.allCases)
    func downgrade(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture, "vip.premium")
        try await fixture.emulator.changeSubscription(
            deviceId: "phone", originalTransactionId: original, productId: "vip.monthly")
        let pending = try await vip(fixture, "the downgrade") { $0.autoRenewProductId == "vip.monthly" }
        #expect(pending.productId == "vip.premium", "premium until the period ends")
        let renewal = try await fixture.emulator.renewSubscription(originalTransactionId: original)
        let vip = try await vip(fixture, "the renewal") { $0.transactionId == renewal.transactionId }
        #expect(vip.productId == "vip.monthly")
        #expect(vip.entitled)
    }

    @Test(
        "a refund of the current period ends the entitlement; an earlier period's does not",
        arguments: StoreKind.allCases)
    func refundOfAPeriod(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let original = try await subscribe(fixture)
        let renewal = try await fixture.emulator.renewSubscription(originalTransactionId: original)
        _ = try await vip(fixture, "the renewal") { $0.transactionId == renewal.transactionId }
        try await fixture.emulator.refund(transactionId: original)
        await fixture.emulator.waitForNotificationDeliveries()
        #expect(try await fixture.entitlement("alice", "vip").state == "active", "the first period's refund")
        try await fixture.emulator.refund(transactionId: renewal.transactionId)
        let refunded = try await vip(fixture, "the refund") { $0.state == "refunded" }
        #expect(!refunded.entitled)
    }
}
