import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The device paths end to end: order → the emulator charges with the order's token →
/// the device reports → delivered, on both databases.
@Suite("Purchase reports, end to end")
struct PurchasePathTests {
    @Test("a signed transaction is delivered to the player who ordered", arguments: StoreKind.allCases)
    func signedTransaction(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)

        let answer = try await fixture.report("alice", signedTransaction: #require(paid.signedTransaction))
        #expect(answer.status == 200)
        let reply = try answer.decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.transactionId == paid.transactionId)
        #expect(reply.orderId == order.orderId)
        #expect(reply.grants == ["coins": 100])
        #expect(reply.balances == ["coins": 100])
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        let stored = try #require(try await fixture.store.order(id: order.orderId))
        #expect(stored.status == .fulfilled)
        #expect(stored.fulfilledBy == paid.transactionId)
    }

    @Test("a receipt transaction is bound by the order the client names", arguments: StoreKind.allCases)
    func receipt(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "potion")
        let paid = try await fixture.pay(product: "potion", token: nil)

        let answer = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"),
            json: [
                "receipt": try #require(paid.appReceipt), "transactionId": try #require(paid.transactionId),
                "orderId": order.orderId,
            ])
        let reply = try answer.decode(PurchaseReply.self)
        #expect(answer.status == 200)
        #expect(reply.status == "delivered")
        #expect(reply.orderId == order.orderId)
        #expect(reply.flags.isEmpty)
        #expect(try await fixture.wallet("alice") == ["potion": 1])
    }

    @Test("only the claimed transaction of a receipt that holds several is delivered")
    func receiptWithSeveralTransactions() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let first = try await fixture.pay(product: "coins100", token: nil)
        let second = try await fixture.pay(product: "coins500", token: nil)
        let answer = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("alice"),
            json: ["receipt": try #require(second.appReceipt), "transactionId": try #require(first.transactionId)])
        let reply = try answer.decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.flags == ["unbound"])
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("reporting twice answers already_delivered with the same purchase and changes nothing")
    func reportTwice() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let jws = try #require(paid.signedTransaction)

        let first = try await fixture.report("alice", signedTransaction: jws).decode(PurchaseReply.self)
        let second = try await fixture.report("alice", signedTransaction: jws).decode(PurchaseReply.self)
        #expect(first.status == "delivered")
        #expect(second.status == "already_delivered")
        #expect(second.transactionId == first.transactionId)
        #expect(second.orderId == first.orderId)
        #expect(second.grants == first.grants)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await fixture.store.ledgerEntries(playerId: "alice").count == 1)
    }

    @Test("100 concurrent reports of one transaction grant once", arguments: StoreKind.allCases)
    func concurrentReports(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let jws = try #require(try await fixture.pay(token: order.appAccountToken).signedTransaction)

        let statuses = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    // What is tested is exactly-once, not latency: 100 reports queue for the
                    // client's connections while the rest of the suite shares the cores.
                    try await fixture.report("alice", signedTransaction: jws, timeout: .seconds(120))
                        .decode(PurchaseReply.self).status
                }
            }
            return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(statuses == ["delivered": 1, "already_delivered": 99])
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await fixture.store.ledgerEntries(playerId: "alice").count == 1)
    }

    @Test("a transaction bound to another player's order is refused and recorded", arguments: StoreKind.allCases)
    func otherPlayer(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let jws = try #require(paid.signedTransaction)

        let stolen = try await fixture.report("mallory", signedTransaction: jws)
        #expect(stolen.status == 409)
        #expect(stolen.code == "transaction_belongs_to_other_player")
        #expect(try await fixture.wallet("mallory").isEmpty)
        // Alice still gets it, and Mallory's later claim on the delivered purchase is refused too.
        #expect(
            try await fixture.report("alice", signedTransaction: jws).decode(PurchaseReply.self).status == "delivered")
        #expect(try await fixture.report("mallory", signedTransaction: jws).status == 409)
        let events = try await fixture.store.events(transactionId: try #require(paid.transactionId))
        let refusals = events.filter { $0.type == .transactionBelongsToOtherPlayer }
        #expect(refusals.count == 2)
        #expect(refusals.allSatisfy { $0.playerId == "mallory" })
    }

    @Test("a receipt transaction claimed for another player's order is refused")
    func receiptForOtherPlayersOrder() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: nil)
        let answer = try await fixture.send(
            .post, "/v1/purchases", credential: fixture.token("mallory"),
            json: [
                "receipt": try #require(paid.appReceipt), "transactionId": try #require(paid.transactionId),
                "orderId": order.orderId,
            ])
        #expect(answer.status == 409)
        #expect(answer.code == "order_belongs_to_other_player")
        #expect(
            try await fixture.store.purchase(store: .appStore, transactionId: try #require(paid.transactionId)) == nil)
    }

    @Test(
        "a receipt reported without its order is bound by the token Apple's Server API holds, not by the reporter",
        arguments: StoreKind.allCases)
    func receiptWithoutOrderBoundThroughApple(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let claim: [String: String] = [
            "receipt": try #require(paid.appReceipt), "transactionId": try #require(paid.transactionId),
        ]

        // Another player signed in on the same phone reports the receipt (its journal lost).
        let stranger = try await fixture.send(.post, "/v1/purchases", credential: fixture.token("bob"), json: claim)
        #expect(stranger.status == 409)
        #expect(stranger.code == "transaction_belongs_to_other_player")
        #expect(try await fixture.wallet("bob").isEmpty)

        // While Apple's Server API fails, the report waits instead of guessing a player.
        await fixture.emulator.setFaults(EmulatorFaults(endpoints: ["serverAPI": EndpointFaults(errorRate: 1)]))
        let waiting = try await fixture.send(.post, "/v1/purchases", credential: fixture.token("alice"), json: claim)
        #expect(waiting.status == 202, "accepted, not delivered: the device retries")
        #expect(waiting.code == "apple_unavailable")
        await fixture.emulator.setFaults(EmulatorFaults())

        let payer = try await fixture.send(.post, "/v1/purchases", credential: fixture.token("alice"), json: claim)
        let reply = try payer.decode(PurchaseReply.self)
        #expect(payer.status == 200)
        #expect(reply.orderId == order.orderId)
        #expect(reply.flags.isEmpty, "bound to alice's order, not unbound")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a product other than the order's is refused")
    func productMismatch() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice", product: "coins100")
        let paid = try await fixture.pay(product: "coins500", token: order.appAccountToken)
        let answer = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
        #expect(answer.status == 422)
        #expect(answer.code == "product_mismatch")
        #expect(try await fixture.wallet("alice").isEmpty)
    }

    @Test("a transaction without token or order goes to the reporter, flagged unbound")
    func unbound() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(token: nil)
        let reply = try await fixture.report("alice", signedTransaction: try #require(paid.signedTransaction))
            .decode(PurchaseReply.self)
        #expect(reply.status == "delivered")
        #expect(reply.flags == ["unbound"])
        #expect(reply.orderId == nil)
    }

    @Test("a refunded transaction is never delivered")
    func revoked() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let transactionId = try #require(paid.transactionId)
        try await fixture.emulator.refund(transactionId: transactionId)
        let refunded = try await fixture.emulator.transactionInfo(transactionId, environment: .sandbox)
        let answer = try await fixture.report("alice", signedTransaction: try #require(refunded.signedTransactionInfo))
        #expect(answer.status == 422)
        #expect(answer.code == "transaction_revoked")
        #expect(try await fixture.wallet("alice").isEmpty)
    }
}
