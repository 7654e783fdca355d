import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Entitlements end to end against the in-process emulator: what each product kind
/// unlocks, and how Apple's notifications move a subscription through its life.
@Suite("Entitlements, end to end")
struct EntitlementLifecycleTests {
    @Test("a non-consumable bought is entitled for good, in the player and admin APIs", arguments: StoreKind.allCases)
    func nonConsumable(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.buy("alice", "levelpack1")
        let entitlement = try await fixture.entitlement("alice", "levelpack1")
        #expect(entitlement.state == "active")
        #expect(entitlement.entitled)
        #expect(entitlement.until == nil)
        #expect(entitlement.autoRenew == nil)
        #expect(entitlement.ownership == "PURCHASED")
        #expect(entitlement.transactionId == paid.transactionId)
        #expect(try await fixture.wallet("alice") == [:], "a non-consumable grants no currency")

        let admin = try await fixture.send(
            .get, "/v1/admin/players/alice/entitlements", credential: ServerFixture.adminKey)
        #expect(try admin.decode(EntitlementListReply.self).entitlements == [entitlement])
        #expect(try await fixture.entitlements("bob").isEmpty)
        await fixture.emulator.waitForNotificationDeliveries()
        #expect(try await fixture.entitlements("alice") == [entitlement], "the notification changes nothing")
    }

    @Test("a second season pass bought during the first starts when the first ends", arguments: StoreKind.allCases)
    func seasonPassStacks(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let first = try await fixture.buy("alice", "seasonpass")
        let second = try await fixture.buy("alice", "seasonpass")
        let passes = try await fixture.entitlements("alice").filter { $0.entitlementId == "seasonpass" }
        #expect(passes.count == 2)
        let period: Int64 = 90 * 86_400_000
        let firstPass = try #require(passes.first { $0.transactionId == first.transactionId })
        let secondPass = try #require(passes.first { $0.transactionId == second.transactionId })
        let firstUntil = try #require(firstPass.until)
        #expect(abs(firstUntil - firstPass.since - period) < 1_000)
        #expect(secondPass.until == firstUntil + period)
        #expect(firstPass.entitled && secondPass.entitled)
    }

    @Test("a subscription bought is entitled until Apple's expiry, renewing", arguments: StoreKind.allCases)
    func subscriptionBought(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.buy("alice", "vip.monthly")
        let transaction = try fixture.decodedTransaction(try #require(paid.signedTransaction))
        await fixture.emulator.waitForNotificationDeliveries()
        let vip = try await fixture.entitlement("alice", "vip")
        #expect(vip.state == "active")
        #expect(vip.entitled)
        #expect(vip.productId == "vip.monthly")
        #expect(vip.until == transaction.expiresDate)
        #expect(vip.since == transaction.originalPurchaseDate)
        #expect(vip.autoRenew == true, "from the SUBSCRIBED notification's renewal info")
        #expect(vip.autoRenewProductId == "vip.monthly")
    }

    @Test("the webhook receives each entitlement change, keyed like the ledger says")
    func webhook() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) {
            $0.webhook = WebhookSettings(url: URL(string: "http://apple.dev/test/webhook")!, secret: "webhook-secret")
        }
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.buy("alice", "levelpack1")
        let transactionId = try #require(paid.transactionId)
        #expect(try await fixture.server.postDueDeliveries(now: Date().addingTimeInterval(1)) == 2)
        let posts = await fixture.webhook.posts
        let entitlementPost = try #require(posts.first { $0.idempotencyKey?.hasPrefix("entitlement:") == true })
        let message = try EntitlementMessage.decode(entitlementPost.body)
        #expect(message.kind == "entitlement")
        #expect(message.playerId == "alice")
        #expect(message.entitlementId == "levelpack1")
        #expect(message.state == "active")
        #expect(message.entitled)
        #expect(message.until == nil)
        #expect(message.transactionId == transactionId)
        let entitlement = try #require(
            try await fixture.store.entitlement(store: .appStore, originalTransactionId: transactionId))
        #expect(entitlementPost.idempotencyKey == EntitlementMessage.idempotencyKey(of: entitlement))
    }
}
