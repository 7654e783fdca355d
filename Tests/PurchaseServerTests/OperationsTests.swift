import Foundation
import LedgerTestSupport
import Testing

@Suite("Health and metrics")
struct OperationsTests {
    @Test("healthz answers ok; metrics count deliveries, refusals and requests")
    func healthAndMetrics() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let health = try await fixture.send(.get, "/healthz")
        #expect(health.status == 200)
        #expect(String(decoding: health.body, as: UTF8.self) == #"{"database":"ok","status":"ok"}"#)

        let order = try await fixture.order("alice")
        let jws = try #require(try await fixture.pay(token: order.appAccountToken).signedTransaction)
        _ = try await fixture.report("alice", signedTransaction: jws)
        _ = try await fixture.report("mallory", signedTransaction: jws)

        let metrics = String(decoding: try await fixture.send(.get, "/metrics").body, as: UTF8.self)
        #expect(
            metrics.contains(#"storekeeper_deliveries_total{source="client_signed_transaction",result="delivered"} 1"#))
        #expect(metrics.contains(#"reason="transaction_belongs_to_other_player"} 1"#))
        #expect(metrics.contains(#"storekeeper_http_requests_total{route="/v1/purchases",status="409"} 1"#))
    }
}
