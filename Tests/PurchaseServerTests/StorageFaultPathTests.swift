import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// A ledger that takes no writes (a full disk, a read-only file), as the routes and
/// `/healthz` answer it: 503 `storage_unavailable` with `Retry-After` on every write,
/// `/healthz` 503 `not_writable`, and everything back by itself once the fault is gone,
/// with the purchase delivered once.
@Suite("Storage faults")
struct StorageFaultPathTests {
    /// The server's own SQLite ledger, to break it from inside the test.
    private static func sqliteStore(_ fixture: ServerFixture) async throws -> SQLiteLedgerStore {
        try #require(try await fixture.store as? SQLiteLedgerStore)
    }

    private static func expectStorageUnavailable(_ answer: HTTPAnswer, _ what: String) {
        #expect(answer.status == 503, "\(what): \(answer)")
        #expect(answer.code == "storage_unavailable", "\(what): \(answer)")
        #expect(answer.headers["retry-after"] == "5", "\(what): \(answer.headers)")
        let body = String(decoding: answer.body, as: UTF8.self)
        #expect(!body.contains("sqlite") && !body.contains("SELECT") && !body.contains("INSERT"), "\(body)")
    }

    @Test("a ledger that takes no writes: 503 storage_unavailable on writes, /healthz not_writable, then recovery")
    func readOnlyLedger() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let store = try await Self.sqliteStore(fixture)
        let order = try await fixture.order("alice")
        let jws = try #require(try await fixture.pay(token: order.appAccountToken).signedTransaction)

        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = ON") }
        Self.expectStorageUnavailable(
            try await fixture.send(
                .post, "/v1/orders", credential: fixture.token("alice"), json: ["productId": "coins100"]),
            "POST /v1/orders")
        Self.expectStorageUnavailable(try await fixture.report("alice", signedTransaction: jws), "POST /v1/purchases")
        let health = try await fixture.send(.get, "/healthz")
        #expect(health.status == 503)
        #expect(String(decoding: health.body, as: UTF8.self) == #"{"database":"not_writable","status":"degraded"}"#)
        // Reads go on.
        #expect(try await fixture.send(.get, "/v1/players/me/wallet", credential: fixture.token("alice")).status == 200)

        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = OFF") }
        try await fixture.eventually("healthz ok") { try await fixture.send(.get, "/healthz").status == 200 }
        let delivered = try await fixture.report("alice", signedTransaction: jws)
        #expect(delivered.status == 200, "\(delivered)")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        _ = try await fixture.report("alice", signedTransaction: jws)
        #expect(try await fixture.wallet("alice") == ["coins": 100], "delivered once")
    }

    @Test(
        "a notification processed before is found by a read alone: a ledger that takes no writes answers it duplicate")
    func duplicateNotificationWritesNothing() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let store = try await Self.sqliteStore(fixture)
        let order = try await fixture.order("alice")
        let transactionId = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        let signed = try await fixture.signedNotification(.oneTimeCharge, about: transactionId)
        let first = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": signed])
        #expect(first.status == 200, "\(first)")

        // The reconciler finds each notification of its hour of overlap again on every pass:
        // with the ledger taking no writes, one it processed before is still a duplicate.
        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = ON") }
        let again = try await fixture.send(.post, "/v1/notifications/apple", json: ["signedPayload": signed])
        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = OFF") }
        #expect(again.status == 200, "\(again)")
        #expect(String(decoding: again.body, as: UTF8.self).contains("duplicate"), "\(again)")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("a full disk: writes answer 503 storage_unavailable with Retry-After, never 500")
    func fullDisk() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let store = try await Self.sqliteStore(fixture)
        // SQLite's max_page_count: past it, a write fails with SQLITE_FULL, as on a full disk.
        try await store.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        var answers: [Int] = []
        for _ in 0..<500 {
            let answer = try await fixture.send(
                .post, "/v1/orders", credential: fixture.token("bob"), json: ["productId": "coins100"])
            answers.append(answer.status)
            if answer.status != 201 {
                Self.expectStorageUnavailable(answer, "POST /v1/orders on a full disk")
                break
            }
        }
        #expect(answers.last == 503, "the disk filled within 500 orders: \(Set(answers))")
        #expect(!answers.contains(500))
    }
}
