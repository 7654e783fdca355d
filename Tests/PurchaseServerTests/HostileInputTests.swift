import Foundation
import LedgerTestSupport
import Testing

/// Nothing a client sends crashes the server or gets a 5xx: random bytes, mutated valid
/// bodies and wrong types on every endpoint that takes a body.
@Suite("Hostile input")
struct HostileInputTests {
    @Test("random and mutated bodies get 4xx answers with a code, and the server stays healthy")
    func randomBodies() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        let paid = try await fixture.pay(token: order.appAccountToken)
        let valid: [(String, String?, String)] = [
            ("/v1/orders", fixture.token("alice"), #"{"productId":"coins100","quantity":2}"#),
            (
                "/v1/purchases", fixture.token("alice"),
                #"{"orderId":"\#(order.orderId)","signedTransaction":"\#(paid.signedTransaction ?? "")"}"#
            ),
            (
                "/v1/purchases", fixture.token("alice"),
                #"{"receipt":"\#(paid.appReceipt ?? "")","transactionId":"\#(paid.transactionId ?? "")"}"#
            ),
            ("/v1/events", fixture.token("alice"), #"{"events":[{"name":"x","occurredAt":1}]}"#),
            ("/v1/notifications/apple", nil, #"{"signedPayload":"a.b.c"}"#),
            ("/v1/admin/grants", ServerFixture.adminKey, #"{"playerId":"p","grants":{"coins":1},"reason":"r"}"#),
            ("/v1/admin/lookup-order", ServerFixture.adminKey, #"{"appleOrderId":"X"}"#),
        ]
        var random = SeededGenerator(seed: 20_261_122)
        for (path, credential, body) in valid {
            for round in 0..<25 {
                let mutated = Self.mutate(Array(body.utf8), round: round, random: &random)
                let answer = try await fixture.send(.post, path, credential: credential, body: Data(mutated))
                #expect(answer.status < 500, "\(path) answered \(answer)")
                if answer.status >= 400 { #expect(answer.code != nil, "\(path): an error without a code: \(answer)") }
            }
        }
        #expect(try await fixture.send(.get, "/healthz").status == 200)
        // Whatever was accepted, no purchase was delivered twice and nothing went to another player.
        let purchases = try await fixture.store.purchases(playerId: "alice")
        #expect(Set(purchases.map(\.transactionId)).count == purchases.count)
    }

    /// Random bytes, a truncation, a byte flip, or a type swap.
    private static func mutate(_ body: [UInt8], round: Int, random: inout SeededGenerator) -> [UInt8] {
        switch round % 5 {
        case 0: return (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1: return Array(body.prefix(Int(random.next() % UInt64(body.count))))
        case 2:
            var flipped = body
            for _ in 0..<3 {
                let index = Int(random.next() % UInt64(flipped.count))
                flipped[index] ^= UInt8(truncatingIfNeeded: random.next() | 1)
            }
            return flipped
        case 3: return Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\"", with: "").utf8)
        default:
            return Array(
                String(decoding: body, as: UTF8.self).replacingOccurrences(of: ":\"", with: ":[1e999,{\"").utf8)
        }
    }
}
