import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Testing

@testable import PurchaseServer

/// `POST /v1/purchases/restore` with Google Play purchases, on both databases: each is read
/// from Google (the report proves nothing), non-consumables and subscriptions are
/// re-linked under the transfer policy as Apple's are, and a consumable is never granted
/// again.
@Suite("Google Play restore")
struct GooglePlayRestoreTests {
    /// Alice's Play purchases of `products`, each ordered, bought and reported (delivered).
    static func bought(_ fixture: ServerFixture, _ products: [String]) async throws -> [PlayDevicePurchaseResult] {
        var bought: [PlayDevicePurchaseResult] = []
        for product in products {
            let order = try await fixture.order("alice", product: product)
            let purchase = try fixture.buyOnPlay(product: product, account: order.appAccountToken)
            let reported = try await fixture.reportPlay("alice", purchase, orderId: order.orderId, product: product)
            #expect(try reported.decode(PurchaseReply.self).status == "delivered", "\(product): \(reported)")
            bought.append(purchase)
        }
        return bought
    }

    @Test(
        "the buyer restoring owns them; another player's restore keeps them with the buyer; a consumable never comes back",
        arguments: StoreKind.allCases)
    func keepWithFirst(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let products = ["levelpack1", "vip.monthly", "coins100"]
        let bought = try await Self.bought(fixture, products)

        let alice = try await fixture.restorePlay("alice", Array(zip(products, bought.map(\.purchaseToken))))
        #expect(alice.results.map(\.status) == ["already_owned", "already_owned", "not_restorable"])
        #expect(alice.results.map(\.transactionId) == bought.map(\.orderId))
        #expect(alice.results[1].originalTransactionId == bought[1].purchaseToken)
        #expect(Set(alice.entitlements.map(\.entitlementId)) == ["levelpack1", "vip"])
        #expect(try await fixture.wallet("alice") == ["coins": 100], "the coins were granted once")

        let bob = try await fixture.restorePlay("bob", Array(zip(products, bought.map(\.purchaseToken))))
        #expect(bob.results.map(\.status) == ["kept_by_other_player", "kept_by_other_player", "not_restorable"])
        #expect(bob.entitlements.isEmpty)
        #expect(try await fixture.wallet("bob") == [:])
        #expect(try await fixture.entitlement("alice", "vip").entitled)
    }

    @Test(
        "a purchase the server never heard of is read from Google, restored to the player and acknowledged; a consumable is not",
        arguments: StoreKind.allCases)
    func firstRestore(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let pack = try fixture.buyOnPlay(product: "levelpack1", account: nil)
        let vip = try fixture.buyOnPlay(product: "vip.monthly", account: nil)
        let coins = try fixture.buyOnPlay(product: "coins100", account: nil)
        let reply = try await fixture.restorePlay(
            "alice",
            [
                ("levelpack1", pack.purchaseToken), ("vip.monthly", vip.purchaseToken),
                ("coins100", coins.purchaseToken), ("levelpack1", "forged-token"),
            ])
        #expect(reply.results.map(\.status) == ["restored", "restored", "not_restorable", "rejected"])
        #expect(reply.results[3].code == "purchase_token_not_found")
        #expect(Set(reply.entitlements.map(\.entitlementId)) == ["levelpack1", "vip"])
        #expect(try await fixture.wallet("alice") == [:], "a restore grants no consumable")
        #expect(try fixture.googleSays(pack).acknowledgementState == AcknowledgementState.acknowledged)
        #expect(
            try fixture.googleSubscription(vip.purchaseToken).acknowledgementState
                == SubscriptionAcknowledgementState.acknowledged)
        #expect(try fixture.googleSays(coins).acknowledgementState == AcknowledgementState.yetToBeAcknowledged)
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: coins.orderId) == nil)
    }

    @Test("transfer_to_latest: Alice's Play subscription moves to Bob, audited", arguments: StoreKind.allCases)
    func transferToLatest(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(
            kind, notifications: false, playKeys: true, subscriptionTimeScale: 1
        ) { $0.restoreTransferPolicy = .transferToLatest }
        defer { Task { await fixture.shutdown() } }
        let vip = try #require(try await Self.bought(fixture, ["vip.monthly"]).first)
        let reply = try await fixture.restorePlay("bob", [("vip.monthly", vip.purchaseToken)])
        #expect(reply.results.map(\.status) == ["transferred"])
        #expect(reply.entitlements.map(\.originalTransactionId) == [vip.purchaseToken])
        #expect(try await fixture.entitlements("alice").isEmpty)
        #expect(try await fixture.entitlement("bob", "vip").entitled)
        let timeline = try await fixture.store.timeline(playerId: "alice")
        #expect(timeline.contains { $0.type == .entitlementTransferred })
    }

    @Test("a malformed Google Play restore is a 400")
    func malformed() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let empty = try await fixture.send(
            .post, "/v1/purchases/restore", credential: fixture.token("alice"),
            json: ["googlePlay": [GooglePlayReport]()])
        #expect(empty.status == 400, "\(empty)")
        let badToken = try await fixture.send(
            .post, "/v1/purchases/restore", credential: fixture.token("alice"),
            json: ["googlePlay": [GooglePlayReport(productId: "vip.monthly", purchaseToken: "a b\n", orderId: nil)]])
        #expect(badToken.status == 400, "\(badToken)")
        #expect(badToken.code == "invalid_identifier")
        // A field sent as null is not a field left out (schemathesis found this one accepted).
        let null = try await fixture.send(
            .post, "/v1/purchases/restore", credential: fixture.token("alice"),
            body: Data(#"{"googlePlay": null, "receipt": "0", "transactionIds": ["0"]}"#.utf8))
        #expect(null.status == 400, "\(null)")
    }
}

extension ServerFixture {
    /// Restores Google Play purchases (product id, purchase token) as `player`.
    func restorePlay(_ player: String, _ purchases: [(String, String)]) async throws -> RestoreReply {
        // A restore reads every purchase from Google, one after another: on a machine the
        // whole suite keeps busy that outlasted the usual 30 s.
        let body = try JSONEncoder().encode([
            "googlePlay": purchases.map { GooglePlayReport(productId: $0.0, purchaseToken: $0.1) }
        ])
        let answer = try await send(
            .post, "/v1/purchases/restore", credential: token(player), body: body, timeout: .seconds(120))
        guard answer.status == 200 else { throw FixtureError("restore failed: \(answer)") }
        return try answer.decode(RestoreReply.self)
    }
}
