import AppStoreAPI
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Two server instances on one PostgreSQL database share the webhook outbox: a message
/// claimed by an instance that dies mid-post is posted by another once the claim expires,
/// with the same idempotency key.
@Suite("Webhook outbox across instances")
struct OutboxClaimExpiryTests {
    @Test("a message claimed by an instance that died mid-post is posted by another after the claim expires")
    func claimOfADeadInstanceExpires() async throws {
        let fixture = try await ServerFixture(.postgres, notifications: false) {
            $0.webhook = WebhookSettings(url: URL(string: "http://apple.dev/test/webhook")!, secret: "webhook-secret")
        }
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        _ = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))

        // The instance that dies: its post reaches the game server and never returns.
        let (posts, post) = AsyncStream.makeStream(of: HTTPRequestData.self)
        let hanging = ClosureHTTPTransport { request in
            post.yield(request)
            try await Task.sleep(for: .seconds(86_400))
            throw CancellationError()
        }
        var configuration = fixture.stack.configuration
        configuration.webhook?.timeoutSeconds = 3_600
        let deadStore = try fixture.database.open()
        let dead = try PurchaseServer(configuration: configuration, store: deadStore, httpTransport: hanging)
        let start = Date()
        let dying = Task { try await dead.postDueDeliveries(now: start) }
        var iterator = posts.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.headers["Idempotency-Key"] == transactionId)

        let live = try await fixture.server
        #expect(try await live.postDueDeliveries(now: start) == 0, "claimed by the other instance")
        #expect(await fixture.webhook.posts.isEmpty)
        #expect(try await live.postDueDeliveries(now: start.addingTimeInterval(61)) == 1, "the claim expired")
        let received = await fixture.webhook.posts
        #expect(received.count == 1)
        #expect(received.first?.idempotencyKey == transactionId, "the same key as the dead instance's post")
        #expect(try await fixture.store.outboxMessage(idempotencyKey: transactionId)?.deliveredAt != nil)

        dying.cancel()
        _ = try? await dying.value
        let message = try #require(try await fixture.store.outboxMessage(idempotencyKey: transactionId))
        #expect(message.deliveredAt != nil, "a late failure of the dead post changes nothing")
        #expect(message.attempts == 0)
        #expect(try await live.postDueDeliveries(now: start.addingTimeInterval(7_200)) == 0)
        try await deadStore.close()
    }
}
