import AppStoreEmulator
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// Support's endpoints and the player's read endpoints.
@Suite("Admin and player reads")
struct AdminTests {
    @Test("the timeline shows orders, client events, deliveries, refusals and manual grants in order")
    func timeline() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let events = try await fixture.send(
            .post, "/v1/events", credential: fixture.token("alice"),
            body: Data(
                #"{"events":[{"name":"purchase_started","orderId":"\#(order.orderId)","occurredAt":1700000000000}]}"#
                    .utf8))
        #expect(events.status == 202)
        let paid = try await fixture.pay(token: order.appAccountToken)
        let jws = try #require(paid.signedTransaction)
        _ = try await fixture.report("alice", signedTransaction: "not.a.jws")
        _ = try await fixture.report("alice", signedTransaction: jws)
        let grant = try await fixture.send(
            .post, "/v1/admin/grants", credential: ServerFixture.adminKey,
            json: GrantBody(playerId: "alice", grants: ["coins": 50], reason: "ticket 42", actor: "sam"))
        #expect(grant.status == 201)

        let answer = try await fixture.send(
            .get, "/v1/admin/players/alice/timeline", credential: ServerFixture.adminKey)
        #expect(answer.status == 200)
        let types = try answer.decode(Timeline.self).events.map(\.type)
        #expect(types == ["order_created", "client_event", "purchase_rejected", "delivered", "manual_grant"])
        #expect(try await fixture.wallet("alice") == ["coins": 150])
        let manual = try #require(try await fixture.store.ledgerEntries(playerId: "alice").last)
        #expect(manual.actor == "sam")
        #expect(manual.reason == "ticket 42")
    }

    @Test("transactions and orders are shown with their history; unknown ones are 404")
    func lookups() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        _ = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
        let transactionId = try #require(paid.transactionId)

        let transaction = try await fixture.send(
            .get, "/v1/admin/transactions/\(transactionId)", credential: ServerFixture.adminKey)
        #expect(transaction.status == 200)
        #expect(String(decoding: transaction.body, as: UTF8.self).contains(#""playerId":"alice""#))
        let orderAnswer = try await fixture.send(
            .get, "/v1/admin/orders/\(order.orderId)", credential: ServerFixture.adminKey)
        #expect(orderAnswer.status == 200)
        #expect(String(decoding: orderAnswer.body, as: UTF8.self).contains(#""fulfilledBy":"\#(transactionId)""#))
        let missing = try await fixture.send(.get, "/v1/admin/transactions/999", credential: ServerFixture.adminKey)
        #expect(missing.status == 404)
        #expect(missing.code == "not_found")
        let missingOrder = try await fixture.send(.get, "/v1/admin/orders/nope", credential: ServerFixture.adminKey)
        #expect(missingOrder.code == "unknown_order")

        let wallet = try await fixture.send(.get, "/v1/players/me/wallet", credential: fixture.token("alice"))
        #expect(String(decoding: wallet.body, as: UTF8.self) == #"{"balances":{"coins":100},"playerId":"alice"}"#)
        let orders = try await fixture.send(.get, "/v1/players/me/orders", credential: fixture.token("alice"))
        #expect(String(decoding: orders.body, as: UTF8.self).contains(#""status":"fulfilled""#))
        let products = try await fixture.send(.get, "/v1/products")
        #expect(String(decoding: products.body, as: UTF8.self).contains(#""productId":"levelpack1""#))
    }

    @Test("a manual grant with a zero amount or no reason is refused")
    func badGrants() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let zero = try await fixture.send(
            .post, "/v1/admin/grants", credential: ServerFixture.adminKey,
            json: GrantBody(playerId: "alice", grants: ["coins": 0], reason: "oops", actor: nil))
        #expect(zero.status == 400)
        let noReason = try await fixture.send(
            .post, "/v1/admin/grants", credential: ServerFixture.adminKey,
            json: GrantBody(playerId: "alice", grants: ["coins": 5], reason: "", actor: nil))
        #expect(noReason.status == 400)
        #expect(try await fixture.wallet("alice").isEmpty)
    }

    @Test("Look Up Order ID delivers what is owed, once, to the named player when unbound")
    func lookUpOrder() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(token: nil)
        let transactionId = try #require(paid.transactionId)
        let appleOrderId = try #require(
            await fixture.emulator.ledger().first { $0.transactionId == transactionId }?.orderId)

        let first = try await fixture.send(
            .post, "/v1/admin/lookup-order", credential: ServerFixture.adminKey,
            json: ["appleOrderId": appleOrderId, "playerId": "carol"])
        #expect(first.status == 200)
        let answer = try first.decode(LookupAnswer.self)
        #expect(answer.status == 0)
        #expect(answer.transactions.map(\.status) == ["delivered"])
        #expect(answer.transactions.first?.flags == ["unbound"])
        #expect(try await fixture.wallet("carol") == ["coins": 100])
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: transactionId)?.source == .adminLookup)

        let again = try await fixture.send(
            .post, "/v1/admin/lookup-order", credential: ServerFixture.adminKey,
            json: ["appleOrderId": appleOrderId, "playerId": "carol"])
        #expect(try again.decode(LookupAnswer.self).transactions.map(\.status) == ["already_delivered"])
        let unknown = try await fixture.send(
            .post, "/v1/admin/lookup-order", credential: ServerFixture.adminKey, json: ["appleOrderId": "NOPE"])
        #expect(try unknown.decode(LookupAnswer.self).status == 1)
        #expect(try await fixture.wallet("carol") == ["coins": 100])
    }

    private struct GrantBody: Encodable {
        var playerId: String
        var grants: [String: Int64]
        var reason: String
        var actor: String?
    }

    private struct Timeline: Decodable {
        struct Event: Decodable {
            var type: String
        }
        var events: [Event]
    }

    private struct LookupAnswer: Decodable {
        var status: Int
        var transactions: [PurchaseReply]
    }
}
