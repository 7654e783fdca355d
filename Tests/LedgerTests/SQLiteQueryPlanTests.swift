import Foundation
import GRDB
import Testing

@testable import Ledger

/// The statements a delivery runs look one transaction up by an index on its id: none walks
/// an index whose range grows with the whole ledger (every event of a type). SQLite keeps no
/// statistics here, so its plan follows from the indexes alone; the plan is read back with
/// `EXPLAIN QUERY PLAN` on a migrated ledger.
struct SQLiteQueryPlanTests {
    /// The plan of `statement`, one line per step.
    private func plan(of statement: LedgerStatement, in store: SQLiteLedgerStore) async throws -> [String] {
        try await store.writer.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + statement.sql,
                arguments: StatementArguments(statement.arguments.map { _ in String?.none })
            ).map { $0["detail"] as String }
        }
    }

    @Test(
        "a delivery's lookups of a transaction's events use the index by transaction, never the one by type",
        arguments: [
            ("seenBefore", LedgerSQL.seenBefore(store: .appStore, transactionId: "2000000000000001")),
            ("refundMovements", LedgerSQL.refundMovements(store: .appStore, transactionId: "2000000000000001")),
        ])
    func transactionEventLookupsUseTheTransactionIndex(name: String, statement: LedgerStatement) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try await store.migrate()
        let steps = try await plan(of: statement, in: store).filter { $0.contains("history_events") }
        #expect(!steps.isEmpty, "\(name) reads history_events")
        for step in steps {
            #expect(step.contains("INDEX history_events_by_transaction (transaction_id=?"), "\(name): \(step)")
        }
        try await store.close()
    }

    @Test("a delivery's read of a transaction's refund notices uses their index by transaction")
    func refundNoticesUseTheTransactionIndex() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try await store.migrate()
        let steps = try await plan(
            of: LedgerSQL.refundNotices(store: .appStore, transactionId: "2000000000000001"), in: store)
        #expect(steps.count == 1)
        #expect(steps.allSatisfy { $0.contains("INDEX refund_notices_by_transaction (transaction_id=?") }, "\(steps)")
        try await store.close()
    }

    @Test("the reconciler's Google Play purchases to settle walk the Play purchases only, in delivery order")
    func playPurchasesToSettleUseThePlayIndex() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try await store.migrate()
        let statement = LedgerSQL.purchases(
            store: .googlePlay, deliveredSince: Date(),
            without: ["acknowledged_at_google", "acknowledge_at_google_refused"],
            limit: 500)
        let steps = try await plan(of: statement, in: store)
        let purchases = steps.filter { $0.hasPrefix("SEARCH purchases") || $0.hasPrefix("SCAN purchases") }
        #expect(purchases == ["SEARCH purchases USING INDEX purchases_play_by_delivery (delivered_at>?)"], "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(steps)")
        try await store.close()
    }
}
