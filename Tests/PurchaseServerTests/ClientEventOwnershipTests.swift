import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// A device's events (`POST /v1/events`) may name any order or transaction, but they are
/// part of an order's or a transaction's history only when posted by its own player
/// (issue 25, section 4): another player's event stays on that player's own timeline.
@Suite("Client events and ownership")
struct ClientEventOwnershipTests {
    @Test(
        "bob's events naming alice's order and transaction stay on bob's timeline",
        arguments: StoreKind.allCases)
    func foreignEventsStayWithTheirPoster(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        // Bob names alice's transaction before it is delivered (a guess at the next id) and
        // after; alice names her own.
        try await post("bob", name: "forged_before", order: order.orderId, transaction: transactionId, fixture)
        #expect(
            try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction)).status == 200)
        try await post("bob", name: "forged_after", order: order.orderId, transaction: transactionId, fixture)
        try await post("alice", name: "purchase_finished", order: order.orderId, transaction: transactionId, fixture)

        let store = try await fixture.store
        let orderNames = try await store.events(orderId: order.orderId).compactMap(\.detail["name"])
        let transactionNames = try await store.events(transactionId: transactionId).compactMap(\.detail["name"])
        #expect(orderNames == ["purchase_finished"])
        #expect(transactionNames == ["purchase_finished"])
        #expect(try await store.events(transactionId: transactionId).allSatisfy { $0.playerId == "alice" })

        let bobs = try await store.timeline(playerId: "bob").filter { $0.type == .clientEvent }
        #expect(bobs.compactMap(\.detail["name"]) == ["forged_before", "forged_after"])
        #expect(bobs.allSatisfy { $0.orderId == order.orderId && $0.transactionId == transactionId })

        for path in ["/v1/admin/orders/\(order.orderId)", "/v1/admin/transactions/\(transactionId)"] {
            let answer = try await fixture.send(.get, path, credential: ServerFixture.adminKey)
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 200 && !body.contains("forged") && body.contains("purchase_finished"), "\(body)")
        }
    }

    @Test("a transaction delivered to nobody shows no device's events", arguments: StoreKind.allCases)
    func unownedTransaction(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let transactionId = try #require(try await fixture.pay(token: nil).transactionId)
        try await post("mallory", name: "i_paid_for_this", order: nil, transaction: transactionId, fixture)
        #expect(try await fixture.store.events(transactionId: transactionId).isEmpty)
        #expect(try await fixture.store.timeline(playerId: "mallory").contains { $0.type == .clientEvent })
    }

    private func post(
        _ player: String, name: String, order: String?, transaction: String?, _ fixture: ServerFixture
    ) async throws {
        var event: [String: any Sendable] = ["name": name, "occurredAt": 1_700_000_000_000]
        event["orderId"] = order
        event["transactionId"] = transaction
        let body = try JSONSerialization.data(withJSONObject: ["events": [event]])
        let answer = try await fixture.send(.post, "/v1/events", credential: fixture.token(player), body: body)
        #expect(answer.status == 202, "\(answer)")
    }
}
