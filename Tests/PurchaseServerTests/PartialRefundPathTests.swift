import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Refunds of part of a purchase end to end: the emulator refunds through its control API
/// (`POST /emulator/v1/transactions/{id}/refund` with a percentage), signs Apple's
/// cumulative `revocationPercentage` and posts REFUND; the server takes back the share.
@Suite("Partial refunds, end to end")
struct PartialRefundPathTests {
    @Test(
        "partial refunds take back their share, the reversal restores it, each change reaches the webhook",
        arguments: StoreKind.allCases)
    func partialRefunds(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind) {
            $0.webhook = WebhookSettings(url: URL(string: "http://apple.dev/test/webhook")!, secret: "secret")
        }
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        try await fixture.eventually("delivery") { try await fixture.wallet("alice") == ["coins": 100] }

        // 30 %, then 50 % more (80 % in all), then reversed, then the whole of it.
        let steps: [(action: String, percentage: Int?, share: Int, coins: Int64)] = [
            ("refund", 30_000, 30_000, 70),
            ("refund", 50_000, 80_000, 20),
            ("reverse-refund", nil, 0, 100),
            ("refund", nil, RefundShare.whole, 0),
        ]
        for step in steps {
            let path = "/emulator/v1/transactions/\(transactionId)/\(step.action)"
            let answer =
                if let percentage = step.percentage {
                    try await fixture.send(.post, path, json: ["percentage": percentage])
                } else {
                    try await fixture.send(.post, path)
                }
            #expect(answer.status == 200, "\(step.action): \(answer)")
            try await fixture.eventually("the ledger at \(step.share)") {
                try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.refundedShare
                    == step.share
            }
            #expect(try await fixture.wallet("alice") == ["coins": step.coins], "at share \(step.share)")
        }
        let purchase = try #require(try await fixture.store.purchase(store: .appStore, transactionId: transactionId))
        #expect(purchase.status == .refunded)

        // Support sees the share; the player's late report too.
        let detail = try await fixture.send(
            .get, "/v1/admin/transactions/\(transactionId)", credential: ServerFixture.adminKey)
        #expect(detail.status == 200)
        #expect(try detail.decode(TransactionReply.self).purchase.refundedShare == RefundShare.whole)
        let reply = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
            .decode(RefundedPurchaseReply.self)
        #expect(reply.status == "already_delivered")
        #expect(reply.refundedShare == RefundShare.whole)

        // The game server received the delivery and each change once, keyed apart.
        #expect(try await fixture.server.postDueDeliveries() == 5)
        let posts = await fixture.webhook.posts
        #expect(
            posts.map(\.idempotencyKey) == [transactionId] + (1...4).map { "\(transactionId):refund:\($0)" })
        let refunds = try posts.dropFirst().map { try RefundMessage.decode($0.body) }
        #expect(refunds.map(\.kind) == ["refund", "refund", "refund_reversed", "refund"])
        #expect(refunds.map(\.grants) == [["coins": -30], ["coins": -50], ["coins": 80], ["coins": -100]])
        #expect(refunds.map(\.refundedShare) == [30_000, 80_000, 0, RefundShare.whole])
        #expect(refunds.allSatisfy { $0.playerId == "alice" && $0.orderId == order.orderId })
    }

    @Test(
        "a transaction refunded in part before any delivery: the REFUND delivers the rest, the late report agrees",
        arguments: StoreKind.allCases)
    func partialRefundBeforeDelivery(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        let refunded = try await fixture.send(
            .post, "/emulator/v1/transactions/\(transactionId)/refund", json: ["percentage": 40_000])
        #expect(refunded.status == 200, "\(refunded)")

        // Only the REFUND reaches the server (the ONE_TIME_CHARGE was lost).
        let refund = try await fixture.signedNotification(.refund, about: transactionId)
        let posted = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": refund])
        #expect(posted.status == 200, "\(posted)")
        let purchase = try #require(try await fixture.store.purchase(store: .appStore, transactionId: transactionId))
        #expect(purchase.source == .notification)
        #expect(purchase.refundedShare == 40_000)
        #expect(purchase.status == .delivered)
        #expect(try await fixture.wallet("alice") == ["coins": 60])
        #expect(try await fixture.store.ledgerEntries(playerId: "alice").map(\.amount) == [100, -40])

        // The phone reports the transaction as signed before the refund, and as signed now
        // (carrying the prorated refund): already delivered, the rest standing.
        let signedNow = try await fixture.emulator.transactionInfo(transactionId, environment: .sandbox)
        for signed in [try #require(paid.signedTransaction), try #require(signedNow.signedTransactionInfo)] {
            let reply = try await fixture.report("alice", signedTransaction: signed)
                .decode(RefundedPurchaseReply.self)
            #expect(reply.status == "already_delivered")
            #expect(reply.refundedShare == 40_000)
            #expect(reply.balances == ["coins": 60])
        }

        // Apple's retry of the REFUND, and the ONE_TIME_CHARGE arriving late, change nothing.
        for payload in [refund, try await fixture.signedNotification(.oneTimeCharge, about: transactionId)] {
            let again = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": payload])
            #expect(again.status == 200)
        }
        #expect(try await fixture.wallet("alice") == ["coins": 60])
    }

    @Test(
        "a phone reporting a transaction refunded in part gets the rest: delivered, then the REFUND takes the share",
        arguments: StoreKind.allCases)
    func partlyRefundedReportFirst(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        let refunded = try await fixture.send(
            .post, "/emulator/v1/transactions/\(transactionId)/refund", json: ["percentage": 40_000])
        #expect(refunded.status == 200, "\(refunded)")

        let signedNow = try await fixture.emulator.transactionInfo(transactionId, environment: .sandbox)
        let reply = try await fixture.report("alice", signedTransaction: try #require(signedNow.signedTransactionInfo))
        #expect(try reply.decode(RefundedPurchaseReply.self).status == "delivered", "\(reply)")
        #expect(try await fixture.wallet("alice") == ["coins": 100])

        let refund = try await fixture.signedNotification(.refund, about: transactionId)
        let posted = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": refund])
        #expect(posted.status == 200, "\(posted)")
        #expect(try await fixture.wallet("alice") == ["coins": 60])
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.refundedShare == 40_000)
    }
}

/// The fields of a purchase answer these tests read.
private struct RefundedPurchaseReply: Decodable {
    var status: String
    var refundedShare: Int?
    var balances: [String: Int64]
}

/// The fields of `GET /v1/admin/transactions/{id}` these tests read.
private struct TransactionReply: Decodable {
    struct Purchase: Decodable {
        var refundedShare: Int
    }

    var purchase: Purchase
}
