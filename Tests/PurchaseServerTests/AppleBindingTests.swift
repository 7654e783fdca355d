import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import PurchaseServer
import Testing

/// Support's lookup binds an unbound transaction to a player through an order, and makes
/// Apple's transaction carry that order's token (Set App Account Token).
@Suite("Binding at Apple")
struct AppleBindingTests {
    @Test(
        "support binds an awaiting transaction: the token is set at Apple, a later REFUND finds the player",
        arguments: StoreKind.allCases)
    func bindThenRefund(kind: StoreKind) async throws {
        let fixture = try await ServerFixture(kind)
        defer { Task { await fixture.shutdown() } }
        let paid = try await fixture.pay(token: nil)
        let transactionId = try #require(paid.transactionId)
        try await fixture.eventually("the unbound notification") {
            try await fixture.store.events(transactionId: transactionId).contains { $0.type == "awaiting_report" }
        }
        #expect(try await fixture.store.purchase(store: .appStore, transactionId: transactionId) == nil)

        let answer = try await lookUp(fixture, transactionId: transactionId, playerId: "carol")
        let delivered = try #require(answer.transactions.first)
        #expect(delivered.status == "delivered" && delivered.flags == ["unbound"])
        let binding = try #require(delivered.appAccountTokenAtApple)
        #expect(binding.status == "set" && binding.orderId == delivered.orderId)
        let order = try #require(try await fixture.store.order(id: binding.orderId))
        #expect(order.playerId == "carol" && order.status == .fulfilled && order.fulfilledBy == transactionId)
        #expect(try await appleToken(fixture, transactionId) == order.appAccountToken)
        let set = try #require(
            try await fixture.store.events(transactionId: transactionId).first { $0.type == .appAccountTokenSetAtApple }
        )
        #expect(set.playerId == "carol" && set.orderId == order.orderId)
        #expect(set.detail["originalTransactionId"] == transactionId)
        #expect(try await fixture.wallet("carol") == ["coins": 100])

        try await fixture.emulator.refund(transactionId: transactionId)
        try await fixture.eventually("the refund") { try await fixture.wallet("carol") == ["coins": 0] }
        let refund = try await fixture.signedNotification(.refund, about: transactionId)
        #expect(try signedTransaction(inNotification: refund).appAccountToken == order.appAccountToken)
        let timeline = try await fixture.store.timeline(playerId: "carol").map(\.type)
        #expect(timeline.contains(.refunded) && timeline.contains(.appAccountTokenSetAtApple))
    }

    @Test("a failed Set App Account Token leaves the binding; looking the order up again sets it")
    func failureThenRetry() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        await fixture.emulator.setFaults(
            EmulatorFaults(endpoints: ["setAppAccountToken": EndpointFaults(errorRate: 1)]))
        let transactionId = try #require(try await fixture.pay(token: nil).transactionId)

        let first = try #require(
            try await lookUp(fixture, transactionId: transactionId, playerId: "carol").transactions.first)
        #expect(first.status == "delivered")
        let failed = try #require(first.appAccountTokenAtApple)
        #expect(failed.status == "failed" && failed.retryable == true && failed.reason == "5000001")
        #expect(try await fixture.wallet("carol") == ["coins": 100])
        #expect(try await appleToken(fixture, transactionId) == nil)
        let event = try #require(
            try await fixture.store.events(transactionId: transactionId).first {
                $0.type == .appAccountTokenAtAppleFailed
            })
        #expect(event.detail["retryable"] == "true" && event.playerId == "carol")

        await fixture.emulator.setFaults(EmulatorFaults())
        let again = try #require(
            try await lookUp(fixture, transactionId: transactionId, playerId: "carol").transactions.first)
        #expect(again.status == "already_delivered")
        #expect(
            again.appAccountTokenAtApple?.status == "set" && again.appAccountTokenAtApple?.orderId == failed.orderId)
        let order = try #require(try await fixture.store.order(id: failed.orderId))
        #expect(try await appleToken(fixture, transactionId) == order.appAccountToken)

        let third = try #require(
            try await lookUp(fixture, transactionId: transactionId, playerId: "carol").transactions.first)
        #expect(third.appAccountTokenAtApple == nil)
        #expect(try await fixture.wallet("carol") == ["coins": 100])
    }

    @Test("a transaction that carries its order's token needs nothing at Apple")
    func alreadyBound() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)

        let answer = try #require(
            try await lookUp(fixture, transactionId: transactionId, playerId: "carol").transactions.first)
        #expect(answer.status == "delivered" && answer.orderId == order.orderId)
        #expect(answer.appAccountTokenAtApple == nil)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await fixture.wallet("carol").isEmpty)
        let types = try await fixture.store.events(transactionId: transactionId).map(\.type)
        #expect(!types.contains(.appAccountTokenSetAtApple) && !types.contains(.appAccountTokenAtAppleFailed))
    }

    // MARK: Helpers

    /// Support's `POST /v1/admin/lookup-order` for the Apple order of `transactionId`,
    /// sent again (up to 3 times in all) on 503 `apple_unavailable`, as the contract tells
    /// support to: on a loaded machine the server's 1 s connect to "Apple" can fail.
    private func lookUp(_ fixture: ServerFixture, transactionId: String, playerId: String) async throws -> LookupAnswer
    {
        let appleOrderId = try #require(
            await fixture.emulator.ledger().first { $0.transactionId == transactionId }?.orderId)
        var answer = try await fixture.send(
            .post, "/v1/admin/lookup-order", credential: ServerFixture.adminKey,
            json: ["appleOrderId": appleOrderId, "playerId": playerId])
        for _ in 1..<3 where answer.status == 503 && answer.code == "apple_unavailable" {
            answer = try await fixture.send(
                .post, "/v1/admin/lookup-order", credential: ServerFixture.adminKey,
                json: ["appleOrderId": appleOrderId, "playerId": playerId])
        }
        guard answer.status == 200 else { throw FixtureError("lookup-order: \(answer)") }
        return try answer.decode(LookupAnswer.self)
    }

    /// The `appAccountToken` Apple's Get Transaction Info shows for the transaction now.
    private func appleToken(_ fixture: ServerFixture, _ transactionId: String) async throws -> String? {
        let info = try await fixture.emulator.transactionInfo(transactionId, environment: .sandbox)
        return try payload(of: try #require(info.signedTransactionInfo)).appAccountToken
    }

    private func signedTransaction(inNotification signedPayload: String) throws -> JWSTransactionDecodedPayload {
        let notification = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self, from: try base64URLDecode(jwsPayloadSegment(signedPayload)))
        return try payload(of: try #require(notification.data?.signedTransactionInfo))
    }

    private func payload(of jws: String) throws -> JWSTransactionDecodedPayload {
        try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: try base64URLDecode(jwsPayloadSegment(jws)))
    }

    private func jwsPayloadSegment(_ jws: String) -> String {
        String(jws.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first ?? "")
    }

    private struct LookupAnswer: Decodable {
        struct Transaction: Decodable {
            var status: String
            var orderId: String?
            var flags: [String]
            var appAccountTokenAtApple: Binding?
        }
        struct Binding: Decodable {
            var status: String
            var orderId: String
            var reason: String?
            var retryable: Bool?
        }
        var status: Int
        var transactions: [Transaction]
    }
}
