import Foundation
import GRDB
import Testing

@testable import Ledger

/// What the embedded ledger promises on power loss: a commit is on disk before it returns.
struct SQLiteDurabilityTests {
    @Test func everyConnectionCommitsWithSynchronousFull() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try await store.migrate()
        // PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
        let writer = try await store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        let reader = try await store.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        let journal = try await store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(writer == 2, "the writer fsyncs the WAL at every commit")
        #expect(reader == 2)
        #expect(journal == "wal")
        try await store.close()
    }
}
