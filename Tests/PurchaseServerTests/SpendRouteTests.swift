import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// `POST /v1/admin/players/{playerId}/spends`: the game server spends from a wallet.
@Suite("Spends over HTTP")
struct SpendRouteTests {
    struct SpendBody: Encodable {
        var idempotencyKey: String
        var items: [String: Int64]
        var reason = "bought a sword"
        var actor: String? = "game-server"
    }

    struct Answer: Decodable {
        var playerId: String
        var idempotencyKey: String
        var items: [String: Int64]
        var balances: [String: Int64]
        var actor: String
        var createdAt: Int64
        var replayed: Bool
    }

    @Test(
        "201 debits and answers the balances; the key again 200 and nothing debited; 409 when short or reused; 400, 401",
        arguments: StoreKind.allCases)
    func spendsOverHTTP(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let admin = ServerFixture.adminKey
        let path = "/v1/admin/players/alice/spends"
        _ = try await fixture.store.grantManually(
            playerId: "alice", grants: ["coins": 100], reason: "funds", actor: "sam", via: nil)

        let first = try await fixture.send(
            .post, path, credential: admin, json: SpendBody(idempotencyKey: "shop-1", items: ["coins": 30]))
        #expect(first.status == 201, "\(first)")
        let recorded = try first.decode(Answer.self)
        #expect(recorded.balances == ["coins": 70] && !recorded.replayed && recorded.actor == "game-server")
        let again = try await fixture.send(
            .post, path, credential: admin, json: SpendBody(idempotencyKey: "shop-1", items: ["coins": 30]))
        #expect(again.status == 200, "\(again)")
        let replayed = try again.decode(Answer.self)
        #expect(replayed.replayed && replayed.balances == ["coins": 70] && replayed.createdAt == recorded.createdAt)
        #expect(try await fixture.wallet("alice") == ["coins": 70])

        let short = try await fixture.send(
            .post, path, credential: admin, json: SpendBody(idempotencyKey: "shop-2", items: ["coins": 71]))
        #expect(short.status == 409 && short.code == "insufficient_balance", "\(short)")
        let reused = try await fixture.send(
            .post, path, credential: admin, json: SpendBody(idempotencyKey: "shop-1", items: ["coins": 31]))
        #expect(reused.status == 409 && reused.code == "idempotency_key_reused", "\(reused)")
        let unauthorized = try await fixture.send(
            .post, path, credential: fixture.token("alice"),
            json: SpendBody(idempotencyKey: "shop-3", items: ["coins": 1]))
        #expect(unauthorized.status == 401, "a player token may not spend: \(unauthorized)")
        let badKey = try await fixture.send(
            .post, path, credential: admin, json: SpendBody(idempotencyKey: "shop\u{200B}", items: ["coins": 1]))
        #expect(badKey.status == 400 && badKey.code == "invalid_identifier", "\(badKey)")
        let zero = try await fixture.send(
            .post, path, credential: admin, json: SpendBody(idempotencyKey: "shop-4", items: ["coins": 0]))
        #expect(zero.status == 400 && zero.code == "invalid_request", "\(zero)")
        #expect(try await fixture.wallet("alice") == ["coins": 70], "no refusal changed the wallet")

        let events = try await fixture.store.timeline(playerId: "alice").filter { $0.type == .spend }
        #expect(events.map { $0.detail["idempotencyKey"] } == ["shop-1"])
        let message = try #require(
            try await fixture.store.outboxMessage(
                idempotencyKey: SpendMessage.idempotencyKey(playerId: "alice", spendKey: "shop-1")))
        #expect(try JSONDecoder().decode(SpendMessage.self, from: message.payload).items == ["coins": 30])
    }
}
