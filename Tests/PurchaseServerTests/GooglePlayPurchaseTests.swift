import AppStoreAPI
import Foundation
import Ledger
import LedgerTestSupport
import PlayEmulator
import PlayModel
import Synchronization
import Testing

/// Google Play reports end to end, on both databases: an order, a purchase on the emulator's
/// Play device with the order's token as `obfuscatedAccountId`, the report, Google's word
/// read by the server, one delivery, and the consume or acknowledge at Google after it.
@Suite("Google Play purchase reports, end to end")
struct GooglePlayPurchaseTests {
    @Test("a Play purchase bound by the order's token is delivered once and consumed", arguments: StoreKind.allCases)
    func deliveredOnceAndConsumed(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)

        let first = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(first.status == 200, "\(first)")
        let reply = try first.decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.transactionId == bought.orderId)
        #expect(reply.orderId == order.orderId)
        #expect(reply.grants == ["coins": 100])
        let purchase = try #require(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId))
        #expect(purchase.playerId == "alice")
        #expect(purchase.originalTransactionId == bought.purchaseToken)
        #expect(purchase.source == .clientPlayPurchase)

        let google = try fixture.googleSays(bought)
        #expect(google.consumptionState == ConsumptionState.consumed)
        #expect(google.acknowledgementState == AcknowledgementState.acknowledged)
        let events = try await fixture.store.events(transactionId: bought.orderId).map(\.type)
        #expect(events.filter { $0 == .acknowledgedAtGoogle }.count == 1)

        let second = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try second.decode(PurchaseReply.self).status == "already_delivered")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        // Settled once: the repeat asks Google nothing more.
        #expect(
            try await fixture.store.events(transactionId: bought.orderId).filter { $0.type == .acknowledgedAtGoogle }
                .count == 1)
    }

    @Test("a non-consumable is acknowledged, not consumed", arguments: StoreKind.allCases)
    func nonConsumableAcknowledged(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "levelpack1")
        let bought = try fixture.buyOnPlay(product: "levelpack1", account: order.appAccountToken)
        let answer = try await fixture.reportPlay("alice", bought, orderId: nil)
        #expect(try answer.decode(PurchaseReply.self).status == "delivered", "\(answer)")
        let google = try fixture.googleSays(bought)
        #expect(google.acknowledgementState == AcknowledgementState.acknowledged)
        #expect(google.consumptionState == ConsumptionState.yetToBeConsumed)
    }

    @Test("a report naming another player's order token is refused and nothing moves", arguments: StoreKind.allCases)
    func wrongPlayer(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)

        let answer = try await fixture.reportPlay("mallory", bought, orderId: nil)
        #expect(answer.status == 409, "\(answer)")
        #expect(answer.code == "transaction_belongs_to_other_player")
        #expect(try await fixture.wallet("mallory").isEmpty)
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId) == nil)
        // Not delivered, so not acknowledged: Alice's report still delivers it.
        #expect(try fixture.googleSays(bought).acknowledgementState == AcknowledgementState.yetToBeAcknowledged)
        let alice = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try alice.decode(PurchaseReply.self).status == "delivered")
    }

    @Test("a pending purchase is answered pending, then delivered once it completes", arguments: StoreKind.allCases)
    func pendingThenCompleted(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken, pending: true)

        let waiting = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(waiting.status == 202, "\(waiting)")
        #expect(try waiting.decode(PurchaseReply.self).status == "pending")
        #expect(waiting.code == "purchase_pending")
        #expect(try await fixture.wallet("alice").isEmpty)
        #expect(try fixture.googleSays(bought).acknowledgementState == AcknowledgementState.yetToBeAcknowledged)

        _ = try fixture.emulator.play.control(deviceId: "pixel", token: bought.purchaseToken, .complete)
        let paid = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try paid.decode(PurchaseReply.self).status == "delivered", "\(paid)")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed)
    }

    @Test("a canceled pending purchase is refused for good and recorded on the order", arguments: StoreKind.allCases)
    func canceledPending(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken, pending: true)
        _ = try fixture.emulator.play.control(deviceId: "pixel", token: bought.purchaseToken, .cancel)

        let answer = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(answer.status == 422, "\(answer)")
        #expect(answer.code == "purchase_cancelled")
        #expect(try await fixture.wallet("alice").isEmpty)
        let events = try await fixture.store.events(orderId: order.orderId)
        let refusal = try #require(events.first { $0.type == .purchaseRejected })
        #expect(refusal.detail["reason"] == "purchase_cancelled")
        #expect(refusal.store == .googlePlay)
    }

    @Test("a forged purchase token or order id is refused with a stable reason", arguments: StoreKind.allCases)
    func forged(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let unknown = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"),
            json: PlayReportBody(
                orderId: order.orderId,
                googlePlay: .init(productId: "coins100", purchaseToken: "forged-token-0123456789", orderId: nil)))
        #expect(unknown.status == 422, "\(unknown)")
        #expect(unknown.code == "purchase_token_not_found")

        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        let otherOrderId = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"),
            json: PlayReportBody(
                orderId: order.orderId,
                googlePlay: .init(
                    productId: "coins100", purchaseToken: bought.purchaseToken, orderId: "GPA.0000-0000-0000-00000")))
        #expect(otherOrderId.code == "play_order_id_mismatch", "\(otherOrderId)")
        let otherProduct = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"),
            json: PlayReportBody(
                orderId: nil,
                googlePlay: .init(productId: "coins500", purchaseToken: bought.purchaseToken, orderId: nil)))
        #expect(otherProduct.code == "purchase_token_product_mismatch", "\(otherProduct)")
        #expect(try await fixture.wallet("alice").isEmpty)
        #expect(try await fixture.store.purchase(store: .googlePlay, transactionId: bought.orderId) == nil)
    }

    @Test("googlePlay beside Apple's fields is a bad request, not an answer, and asks Google nothing")
    func mixedReport() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let body = #"{"signedTransaction":"a.b.c","googlePlay":{"productId":"coins100","purchaseToken":"token-1"}}"#
        let answer = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"), body: Data(body.utf8))
        #expect(answer.status == 400, "\(answer)")
        #expect(answer.code == "invalid_request")
    }

    @Test(
        "a consume Google fails is recorded, the delivery stands, and the reconciler consumes it later",
        arguments: StoreKind.allCases)
    func acknowledgementRetriedByReconciler(kind: StoreKind) async throws {
        let failing = Atomic<Bool>(true)
        let fixture = try await ServerFixture(
            kind, notifications: false, playKeys: true, subscriptionTimeScale: 1,
            interceptor: { request in
                guard failing.load(ordering: .sequentiallyConsistent), request.url.path.hasSuffix(":consume") else {
                    return nil
                }
                return HTTPResponseData.googleUnavailable
            })
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)

        let answer = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try answer.decode(PurchaseReply.self).status == "delivered", "\(answer)")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.yetToBeConsumed)
        let failed = try await fixture.store.events(transactionId: bought.orderId).first {
            $0.type == .acknowledgeAtGoogleFailed
        }
        #expect(failed?.detail["httpStatus"] == "503")

        let reconciler = try #require(try await fixture.server.reconciler)
        let stillFailing = try await reconciler.run()
        #expect(stillFailing.playUnacknowledged == 1)
        #expect(stillFailing.playAcknowledged == 0)

        failing.store(false, ordering: .sequentiallyConsistent)
        let report = try await reconciler.run()
        #expect(report.playUnacknowledged == 1)
        #expect(report.playAcknowledged == 1)
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed)
        #expect(try await reconciler.run().playUnacknowledged == 0)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a repeat report retries a failed acknowledgement")
    func repeatReportRetries() async throws {
        let failing = Atomic<Bool>(true)
        let fixture = try await ServerFixture(
            .sqlite, notifications: false, playKeys: true, subscriptionTimeScale: 1,
            interceptor: { request in
                guard failing.load(ordering: .sequentiallyConsistent), request.url.path.hasSuffix(":consume") else {
                    return nil
                }
                throw FixtureError("connection refused")
            })
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        #expect(
            try await fixture.reportPlay("alice", bought, orderId: order.orderId).decode(PurchaseReply.self).status
                == "delivered")
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.yetToBeConsumed)
        failing.store(false, ordering: .sequentiallyConsistent)
        let again = try await fixture.reportPlay("alice", bought, orderId: order.orderId)
        #expect(try again.decode(PurchaseReply.self).status == "already_delivered")
        #expect(try fixture.googleSays(bought).consumptionState == ConsumptionState.consumed)
    }

    @Test(
        "the admin API finds the player by Google's order id and by the purchase token", arguments: StoreKind.allCases)
    func adminFindsPlayer(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false, playKeys: true, subscriptionTimeScale: 1)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let bought = try fixture.buyOnPlay(account: order.appAccountToken)
        _ = try await fixture.reportPlay("alice", bought, orderId: order.orderId)

        let byOrderId = try await fixture.send(
            .get, "/v1/admin/transactions/\(bought.orderId)", credential: ServerFixture.adminKey)
        #expect(byOrderId.status == 200, "\(byOrderId)")
        let transaction = try byOrderId.decode(AdminPurchases.One.self)
        #expect(transaction.purchase?.playerId == "alice")

        let token = try #require(bought.purchaseToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let byToken = try await fixture.send(
            .get, "/v1/admin/google-play/purchases/\(token)", credential: ServerFixture.adminKey)
        #expect(byToken.status == 200, "\(byToken)")
        #expect(try byToken.decode(AdminPurchases.self).purchases.map(\.playerId) == ["alice"])

        let unknown = try await fixture.send(
            .get, "/v1/admin/google-play/purchases/unknown-token", credential: ServerFixture.adminKey)
        #expect(unknown.status == 404)
    }
}

/// The admin answers about Play purchases, as a support tool reads them.
private struct AdminPurchases: Decodable {
    struct Purchase: Decodable {
        var playerId: String
        var transactionId: String
    }
    struct One: Decodable {
        var purchase: Purchase?
    }
    var purchases: [Purchase]
}

/// `POST /v1/purchases` with a Google Play purchase.
struct PlayReportBody: Encodable {
    struct Play: Encodable {
        var productId: String
        var purchaseToken: String
        var orderId: String?
    }
    var orderId: String?
    var googlePlay: Play
}

extension ServerFixture {
    /// Buys `product` on the emulator's Play device `device`, bound to `account` (an order's
    /// app account token, as `setObfuscatedAccountId`).
    func buyOnPlay(
        product: String = "coins100", account: String?, pending: Bool = false, device: String = "pixel"
    ) throws -> PlayDevicePurchaseResult {
        try emulator.play.purchase(
            deviceId: device,
            PlayDevicePurchaseRequest(productId: product, obfuscatedAccountId: account, pending: pending ? true : nil))
    }

    /// Reports `bought` as `player` the way the app does (Google's order id included).
    func reportPlay(
        _ player: String, _ bought: PlayDevicePurchaseResult, orderId: String?, product: String = "coins100"
    )
        async throws -> HTTPAnswer
    {
        let productId =
            (try? JSONSerialization.jsonObject(with: Data(bought.originalJson.utf8)) as? [String: Any])?[
                "productId"] as? String
        return try await send(
            .post, "/v1/purchases", credential: token(player),
            json: PlayReportBody(
                orderId: orderId,
                googlePlay: .init(
                    productId: productId ?? product, purchaseToken: bought.purchaseToken, orderId: bought.orderId)))
    }

    /// What Google's API says of `bought` now.
    func googleSays(_ bought: PlayDevicePurchaseResult) throws -> ProductPurchase {
        let productId =
            (try JSONSerialization.jsonObject(with: Data(bought.originalJson.utf8)) as? [String: Any])?["productId"]
            as? String ?? "coins100"
        return try emulator.play.productPurchase(
            packageName: emulator.play.packageName, productId: productId, token: bought.purchaseToken)
    }
}

extension HTTPResponseData {
    /// Google's answer from a backend that cannot serve the request now (503 `UNAVAILABLE`),
    /// for interceptors that make Google fail.
    static let googleUnavailable = HTTPResponseData(
        status: 503,
        body: Data(
            #"{"error":{"code":503,"message":"The service is currently unavailable.","status":"UNAVAILABLE"}}"#.utf8))
}
