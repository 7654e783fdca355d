import AppStoreAPI
import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Synchronization
import Testing

@testable import PurchaseServer

/// Google's three days to acknowledge a purchase, end to end on both databases, on a Play
/// clock the test moves (real durations, no waiting): an acknowledgement Google failed is
/// retried by the reconciler well before the three days end, so Google voids nothing; a
/// purchase the server never heard of is voided by Google, and the server records the void
/// without granting or losing anything; a subscription acknowledged in time is kept.
@Suite("Google Play's three days to acknowledge, end to end")
struct GooglePlayThreeDayRuleTests {
    static let day: TimeInterval = 86_400

    /// A Play clock at the present whole second: the server keeps real time, and Google's
    /// milliseconds and the reconciler's agree on a whole second.
    static func presentClock() -> ManualClock {
        ManualClock(start: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// Google's voided purchases listed now, subscriptions and partial refunds included.
    static func voided(_ fixture: ServerFixture) throws -> [VoidedPurchase] {
        try fixture.emulator.play.voidedPurchases(
            packageName: fixture.emulator.play.packageName,
            VoidedPurchasesQuery(type: 1, includeQuantityBasedPartialRefund: true)
        ).voidedPurchases ?? []
    }

    @Test(
        "a delivery whose consume Google failed is consumed by the reconciler at 2.5 days, and Google voids nothing",
        arguments: StoreKind.allCases)
    func failedAcknowledgementRetriedInTime(kind: StoreKind) async throws {
        let clock = Self.presentClock()
        let googleDown = Atomic<Bool>(true)
        let fixture = try await ServerFixture(
            kind, notifications: false, playKeys: true, subscriptionTimeScale: 1, playClock: clock,
            interceptor: { request in
                let path = request.url.path
                guard googleDown.load(ordering: .sequentiallyConsistent),
                    path.hasSuffix(":consume") || path.hasSuffix(":acknowledge")
                else { return nil }
                return HTTPResponseData.googleUnavailable
            })
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        let reported = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(reported)")
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.yetToBeConsumed)
        let events = try await fixture.store.events(transactionId: bought.orderId).map(\.type)
        #expect(events.contains(.acknowledgeAtGoogleFailed))
        #expect(!events.contains(.acknowledgedAtGoogle))

        // A day on, Google still fails: the reconciler finds the purchase owed and tries.
        let reconciler = try #require(try await fixture.server.reconciler)
        clock.advance(by: Self.day)
        let stillDown = try await reconciler.run(now: clock.now)
        #expect(stillDown.playUnacknowledged == 1)
        #expect(stillDown.playAcknowledged == 0)

        // Google recovers; at 2.5 days the reconciler's pass consumes it.
        googleDown.store(false, ordering: .sequentiallyConsistent)
        clock.advance(by: 1.5 * Self.day)
        let recovered = try await reconciler.run(now: clock.now)
        #expect(recovered.playUnacknowledged == 1)
        #expect(recovered.playAcknowledged == 1)
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed)

        // Past the three days: Google kept the purchase, and nothing was taken back.
        clock.advance(by: Self.day)
        let google = try fixture.googleSays(bought)
        #expect(google.purchaseState == PurchaseState.purchased)
        #expect(google.refundableQuantity == 1)
        #expect(try Self.voided(fixture).isEmpty)
        let later = try await reconciler.run(now: clock.now)
        #expect(later.playUnacknowledged == 0)
        #expect(later.playVoidsFetched == 0)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.status == .delivered)
    }

    @Test(
        "an App Store outage does not hold back the reconciler's Google acknowledgements: the pass fails, the purchase is consumed",
        arguments: StoreKind.allCases)
    func appleOutageLeavesGoogleAcknowledgementsToRun(kind: StoreKind) async throws {
        let clock = Self.presentClock()
        let googleDown = Atomic<Bool>(true)
        let fixture = try await ServerFixture(
            kind, notifications: false, playKeys: true, subscriptionTimeScale: 1, playClock: clock,
            interceptor: { request in
                let path = request.url.path
                let acknowledging = path.hasSuffix(":consume") || path.hasSuffix(":acknowledge")
                // Apple's API is down throughout; Google's acknowledgements until told.
                guard
                    path.contains("/inApps/") || (acknowledging && googleDown.load(ordering: .sequentiallyConsistent))
                else { return nil }
                return HTTPResponseData(status: 503, body: Data(#"{"errorCode":5000000,"errorMessage":"down"}"#.utf8))
            })
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        let reported = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(reported)")
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.yetToBeConsumed)

        googleDown.store(false, ordering: .sequentiallyConsistent)
        clock.advance(by: Self.day)
        let reconciler = try #require(try await fixture.server.reconciler)
        await #expect(throws: (any Error).self, "Apple's history could not be read: the pass fails") {
            try await reconciler.run(now: clock.now)
        }
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed)
        let events = try await fixture.store.events(transactionId: bought.orderId).map(\.type)
        #expect(events.contains(.acknowledgedAtGoogle))

        // Past Google's three days: nothing voided.
        clock.advance(by: 3 * Self.day)
        #expect(try Self.voided(fixture).isEmpty)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test(
        "a purchase never reported nor pushed is voided by Google after three days; the void is recorded, nothing granted or lost",
        arguments: StoreKind.allCases)
    func neverReportedIsVoided(kind: StoreKind) async throws {
        let clock = Self.presentClock()
        let fixture = try await ServerFixture(
            kind, notifications: false, playKeys: true, subscriptionTimeScale: 1, playClock: clock)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        let reconciler = try #require(try await fixture.server.reconciler)

        // A minute before the three days end: nothing voided, nothing the server owes.
        clock.advance(by: 3 * Self.day - 60)
        let before = try await reconciler.run(now: clock.now)
        #expect(before.playVoidsFetched == 0)
        #expect(before.playUnacknowledged == 0)
        #expect(try fixture.googleSays(bought).purchaseState == PurchaseState.purchased)

        // A minute after: Google refunded and revoked it, for reason 8, when the window closed.
        clock.advance(by: 120)
        let after = try await reconciler.run(now: clock.now)
        #expect(after.playVoidsFetched == 1)
        #expect(after.playVoidsRejected == 0)
        #expect(after.playVoidsSettled == 0, "no delivery to take back")
        #expect(try fixture.googleSays(bought).purchaseState == PurchaseState.canceled)
        let void = try #require(try Self.voided(fixture).first)
        #expect(void.orderId == bought.orderId)
        #expect(void.voidedSource == VoidedSource.google)
        #expect(void.voidedReason == VoidedReason.unacknowledgedPurchase)

        // The ledger holds Google's word against the order id, and nothing moved.
        let record = try #require(
            try await fixture.store.notification(uuid: "googlePlay.voided.\(bought.orderId).\(RefundShare.whole)"))
        #expect(record.store == .googlePlay)
        #expect(record.type == PlayVoidSettler.notificationType)
        #expect(record.subtype == PlayVoidSettler.fullReason)
        #expect(record.transactionId == bought.orderId)
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId) == nil)
        #expect(try await fixture.wallet("alice").isEmpty)

        // The player's late report is refused for good; the same void again changes nothing.
        let late = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(late.status == 422, "\(late)")
        #expect(late.code == "purchase_cancelled")
        let again = try await reconciler.run(now: clock.now.addingTimeInterval(60))
        #expect(again.playVoidsSettled == 0)
        #expect(try await fixture.wallet("alice").isEmpty)
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId) == nil)
    }

    @Test(
        "a subscription acknowledged in time is not voided past three days; one never acknowledged is revoked",
        arguments: StoreKind.allCases)
    func subscriptionAcknowledgedInTime(kind: StoreKind) async throws {
        let clock = Self.presentClock()
        let fixture = try await ServerFixture(
            kind, notifications: false, playKeys: true, subscriptionTimeScale: 1, playClock: clock)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "vip.monthly")
        let alice = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)
        let reported = try await fixture.reportPlay("alice", alice, orderId: order.orderId, product: "vip.monthly")
        #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(reported)")
        #expect(
            try fixture.googleSubscription(alice.purchaseToken).acknowledgementState
                == SubscriptionAcknowledgementState.acknowledged)
        // Bob's is bought and never reported: nobody acknowledges it.
        let bobsOrder = try await fixture.order("bob", product: "vip.monthly")
        let bob = try fixture.buyOnPlay(product: "vip.monthly", account: bobsOrder.appAccountToken, device: "tablet")

        clock.advance(by: 3 * Self.day + 60)
        let google = try fixture.googleSubscription(alice.purchaseToken)
        #expect(google.subscriptionState == SubscriptionState.active)
        #expect(try fixture.googleSubscription(bob.purchaseToken).subscriptionState == SubscriptionState.expired)
        #expect(try Self.voided(fixture).map(\.orderId) == [bob.orderId])

        let report = try await #require(try await fixture.server.reconciler).run(now: clock.now)
        #expect(report.playVoidsFetched == 1)
        let entitlement = try #require(
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: alice.purchaseToken))
        #expect(entitlement.state == .active)
        #expect(entitlement.playerId == "alice")
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: alice.orderId))
        #expect(purchase.status == .delivered)
        #expect(
            try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: bob.purchaseToken) == nil)
    }
}
