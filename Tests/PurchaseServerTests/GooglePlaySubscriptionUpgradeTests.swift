import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

@testable import PurchaseServer

/// Google Play's upgrades on both databases: the new purchase token names the old one in
/// `linkedPurchaseToken`, its entitlement goes to the old chain's holder, and the old
/// token's entitlement is closed, whatever Google later says of the old token.
@Suite("Google Play subscription upgrades")
struct GooglePlaySubscriptionUpgradeTests {
    /// Alice's vip.monthly, reported and delivered, then upgraded on the same device to
    /// vip.premium through her new order (not reported yet).
    static func upgrade(_ fixture: ServerFixture) async throws -> (
        old: PlayDevicePurchaseResult, new: PlayDevicePurchaseResult, newOrder: OrderReply
    ) {
        let order = try await fixture.order("alice", product: "vip.monthly")
        let old = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)
        let reported = try await fixture.reportPlay("alice", old, orderId: order.orderId, product: "vip.monthly")
        #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(reported)")
        let newOrder = try await fixture.order("alice", product: "vip.premium")
        let new = try fixture.emulator.play.purchase(
            deviceId: "pixel",
            PlayDevicePurchaseRequest(
                productId: "vip.premium", obfuscatedAccountId: newOrder.appAccountToken,
                oldPurchaseToken: old.purchaseToken,
                subscriptionReplacementMode: PlaySubscriptionReplacementMode.chargeProratedPrice))
        return (old, new, newOrder)
    }

    static func entitlement(_ fixture: ServerFixture, _ bought: PlayDevicePurchaseResult) async throws
        -> Entitlement?
    {
        try await fixture.store.entitlement(store: .googlePlay, originalTransactionId: bought.purchaseToken)
    }

    /// The player's entitlements that entitle now.
    static func active(_ fixture: ServerFixture, _ player: String) async throws -> [Entitlement] {
        try await fixture.store.entitlements(playerId: player).filter { $0.state == .active }
    }

    @Test(
        "an upgrade keeps the chain's holder: the new token is Alice's, the old one closed, one active entitlement",
        arguments: StoreKind.allCases)
    func upgradeKeepsTheHolder(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let (old, new, newOrder) = try await Self.upgrade(fixture)
        #expect(try fixture.googleSubscription(new.purchaseToken).linkedPurchaseToken == old.purchaseToken)

        // Mallory cannot take the chain by reporting its new link, as with Apple's chains.
        let mallory = try await fixture.reportPlay("mallory", new, orderId: nil, product: "vip.premium")
        #expect(mallory.status == 409, "\(mallory)")
        #expect(mallory.code == "transaction_belongs_to_other_player")
        #expect(try await Self.entitlement(fixture, new) == nil)
        #expect(try await Self.entitlement(fixture, old)?.state == .active)

        let reported = try await fixture.reportPlay("alice", new, orderId: newOrder.orderId, product: "vip.premium")
        #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(reported)")
        let upgraded = try #require(try await Self.entitlement(fixture, new))
        #expect(upgraded.playerId == "alice")
        #expect(upgraded.productId == "vip.premium")
        #expect(upgraded.state == .active)
        let replaced = try #require(try await Self.entitlement(fixture, old))
        #expect(replaced.playerId == "alice")
        #expect(replaced.state == .expired)
        #expect(replaced.autoRenew == false)
        #expect(try await Self.active(fixture, "alice").map(\.originalTransactionId) == [new.purchaseToken])
        #expect(try await fixture.store.order(id: newOrder.orderId)?.fulfilledBy != nil)

        // Again, and Mallory again: nothing changes.
        let again = try await fixture.reportPlay("alice", new, orderId: newOrder.orderId, product: "vip.premium")
        #expect(try again.decode(PurchaseReply.self).status == "already_delivered")
        #expect(try await fixture.reportPlay("mallory", new, orderId: nil, product: "vip.premium").status == 409)
        #expect(try await Self.active(fixture, "alice").map(\.originalTransactionId) == [new.purchaseToken])
        #expect(try await Self.active(fixture, "mallory").isEmpty)
    }

    @Test(
        "an upgrade bought without an order's token still goes to the chain's holder, never to another reporter",
        arguments: StoreKind.allCases)
    func unboundUpgradeFollowsTheChain(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "vip.monthly")
        let old = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)
        _ = try await fixture.reportPlay("alice", old, orderId: order.orderId, product: "vip.monthly")
        let new = try fixture.emulator.play.purchase(
            deviceId: "pixel", PlayDevicePurchaseRequest(productId: "vip.premium", oldPurchaseToken: old.purchaseToken))

        // Nothing names Alice but the chain: Mallory's report of it is another player's.
        let mallory = try await fixture.reportPlay("mallory", new, orderId: nil, product: "vip.premium")
        #expect(mallory.status == 409, "\(mallory)")
        #expect(mallory.code == "transaction_belongs_to_other_player")
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: new.orderId) == nil)

        let alice = try await fixture.reportPlay("alice", new, orderId: nil, product: "vip.premium")
        #expect(try alice.decode(PurchaseReply.self).status == "delivered", "\(alice)")
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: new.orderId))
        #expect(purchase.playerId == "alice")
        #expect(!purchase.flags.contains(PurchaseFlag.unbound), "bound by the chain, not by the reporter")
        #expect(try await Self.active(fixture, "alice").map(\.originalTransactionId) == [new.purchaseToken])
        #expect(try await Self.entitlement(fixture, old)?.state == .expired)
    }

    @Test(
        "an upgrade another game account ordered and paid is that player's, as an Apple resubscription is",
        arguments: StoreKind.allCases)
    func upgradeOrderedByAnotherPlayer(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "vip.monthly")
        let old = try fixture.buyOnPlay(product: "vip.monthly", account: order.appAccountToken)
        _ = try await fixture.reportPlay("alice", old, orderId: order.orderId, product: "vip.monthly")
        let bobsOrder = try await fixture.order("bob", product: "vip.premium")
        let new = try fixture.emulator.play.purchase(
            deviceId: "pixel",
            PlayDevicePurchaseRequest(
                productId: "vip.premium", obfuscatedAccountId: bobsOrder.appAccountToken,
                oldPurchaseToken: old.purchaseToken))

        let alice = try await fixture.reportPlay("alice", new, orderId: nil, product: "vip.premium")
        #expect(alice.status == 409, "\(alice)")
        #expect(alice.code == "transaction_belongs_to_other_player")
        let bob = try await fixture.reportPlay("bob", new, orderId: bobsOrder.orderId, product: "vip.premium")
        #expect(try bob.decode(PurchaseReply.self).status == "delivered", "\(bob)")
        #expect(try await Self.entitlement(fixture, new)?.playerId == "bob")
        #expect(try await Self.active(fixture, "bob").map(\.originalTransactionId) == [new.purchaseToken])
        #expect(try await Self.active(fixture, "alice").isEmpty)
        #expect(try await Self.entitlement(fixture, old)?.state == .expired)
    }

    @Test(
        "a replaced token's late notifications change nothing: the new link stays active, the old one closed",
        arguments: StoreKind.allCases)
    func lateNotificationsOfTheReplacedToken(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: true, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let (old, new, newOrder) = try await Self.upgrade(fixture)
        let reported = try await fixture.reportPlay("alice", new, orderId: newOrder.orderId, product: "vip.premium")
        #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(reported)")
        let before = try #require(try await Self.entitlement(fixture, new))

        // Only now do Google's pushes arrive: the old token's SUBSCRIPTION_PURCHASED and
        // SUBSCRIPTION_EXPIRED, then the new token's SUBSCRIPTION_PURCHASED.
        await fixture.emulator.play.sendPendingNotifications()
        await fixture.emulator.waitForPlayNotificationDeliveries()
        // A replay of the old token's purchase, as Pub/Sub may push it again much later.
        let replay = try await fixture.pushPlaySubscription(
            old.purchaseToken, product: "vip.monthly", type: SubscriptionNotificationType.purchased)
        #expect(replay == 200 || replay == 204, "\(replay)")

        let after = try #require(try await Self.entitlement(fixture, new))
        #expect(after.playerId == "alice")
        #expect(after.state == .active)
        #expect(after.transactionId == before.transactionId)
        #expect(try await Self.entitlement(fixture, old)?.state == .expired)
        #expect(try await Self.active(fixture, "alice").map(\.originalTransactionId) == [new.purchaseToken])
        #expect(
            try await fixture.store.purchases(store: .googlePlay, originalTransactionId: old.purchaseToken).count == 1)
        #expect(
            try await fixture.store.purchases(store: .googlePlay, originalTransactionId: new.purchaseToken).count == 1)
    }
}

extension ServerFixture {
    /// Pushes a `subscriptionNotification` of `type` about `token` to
    /// `POST /v1/notifications/google` as Google's Pub/Sub would (dated now, signed by the
    /// emulator's push key for the configured audience); the HTTP status.
    func pushPlaySubscription(_ token: String, product: String, type: Int) async throws -> Int {
        let notification = DeveloperNotification(
            packageName: emulator.play.packageName,
            eventTimeMillis: String(Int64(Date().timeIntervalSince1970 * 1000)),
            subscriptionNotification: SubscriptionNotification(
                notificationType: type, purchaseToken: token, subscriptionId: product))
        let envelope = PubSubPushEnvelope(
            message: PubSubMessage(
                data: try JSONEncoder().encode(notification).base64EncodedString(), messageId: "9000000000000001",
                publishTime: "2026-01-01T00:00:00.000Z"),
            subscription: "projects/p/subscriptions/s")
        let url = await stack.baseURL.appendingPathComponent("v1/notifications/google")
        let bearer = try #require(emulator.play.pushHeaders(for: url)["Authorization"])
        return try await send(
            .post, "/v1/notifications/google", credential: String(bearer.dropFirst("Bearer ".count)),
            body: try JSONEncoder().encode(envelope)
        ).status
    }
}
