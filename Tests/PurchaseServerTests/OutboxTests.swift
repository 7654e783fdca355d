import Crypto
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// The webhook outbox: each delivery is posted, signed, until the game server acknowledges.
@Suite("Webhook outbox")
struct OutboxTests {
    static let secret = "webhook-secret"

    @Test("a delivery is posted with an HMAC signature and its idempotency key, retried after a failure")
    func postsAndRetries() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false) {
            $0.webhook = WebhookSettings(url: URL(string: "http://apple.dev/test/webhook")!, secret: Self.secret)
        }
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        _ = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))

        await fixture.webhook.failNext(1)
        let firstAttempt = Date()
        #expect(try await fixture.server.postDueDeliveries(now: firstAttempt) == 0)
        let failed = try #require(try await fixture.store.outboxMessage(idempotencyKey: transactionId))
        #expect(failed.attempts == 1)
        #expect(failed.deliveredAt == nil)
        #expect(failed.nextAttemptAt > firstAttempt.addingTimeInterval(1), "retried after a backoff")
        #expect(try await fixture.server.postDueDeliveries(now: firstAttempt) == 0, "not due again yet")

        #expect(try await fixture.server.postDueDeliveries(now: Date().addingTimeInterval(3_600)) == 1)
        let posts = await fixture.webhook.posts
        #expect(posts.count == 2)
        let post = try #require(posts.last)
        #expect(post.idempotencyKey == transactionId)
        let expected = HMAC<SHA256>.authenticationCode(
            for: post.body, using: SymmetricKey(data: Data(Self.secret.utf8))
        )
        .map { String(format: "%02x", $0) }.joined()
        #expect(post.signature == "sha256=\(expected)")
        let message = try DeliveryMessage.decode(post.body)
        #expect(message.playerId == "alice")
        #expect(message.transactionId == transactionId)
        #expect(message.grants == ["coins": 100])
        #expect(try await fixture.store.outboxMessage(idempotencyKey: transactionId)?.deliveredAt != nil)
        #expect(try await fixture.server.postDueDeliveries(now: Date().addingTimeInterval(7_200)) == 0)
    }
}
