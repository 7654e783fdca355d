import Foundation
import LedgerTestSupport

@testable import Ledger

/// A PostgreSQL ledger filled with history (``HistoryFill``, the same fill as
/// ``FilledSQLiteLedger``), analyzed, with settings of its own for the sessions that follow
/// (`auto_explain`'s among them): what the plan and work checks of PostgreSQL read.
struct FilledPostgresLedger {
    /// The database's URL, for a store.
    let url: String
    /// The database's name, for `psql` and the settings.
    let name: String
    let summary: HistoryFillSummary
    /// The fill's present: its history lies in the three years before.
    let now: Date

    /// Fills a new database, sets each of `settings` (`name = value`) on it for the sessions
    /// to come, and analyzes it.
    static func make(settings: [String]) async throws -> FilledPostgresLedger {
        let database = try await PostgresCluster.shared.createDatabase()
        let now = Date()
        let summary = try await withStore(url: database.url) { store in
            try await HistoryFill.fill(
                store, purchases: FilledSQLiteLedger.purchases, products: HistoryFillTests.products,
                random: SeededGenerator(seed: 21), now: now)
        }
        for setting in settings {
            try await PostgresCluster.shared.execute(
                database: database.name, "ALTER DATABASE \(database.name) SET \(setting)")
        }
        try await PostgresCluster.shared.execute(database: database.name, "ANALYZE")
        return FilledPostgresLedger(url: database.url, name: database.name, summary: summary, now: now)
    }

    /// Runs `body` on a new store of the ledger, closed after.
    func withStore<Value: Sendable>(_ body: (any LedgerStore) async throws -> Value) async throws -> Value {
        try await Self.withStore(url: url, body)
    }

    private static func withStore<Value: Sendable>(
        url: String, _ body: (any LedgerStore) async throws -> Value
    ) async throws -> Value {
        let store = try makeLedgerStore(url: url)
        do {
            let value = try await body(store)
            try await store.close()
            return value
        } catch {
            try? await store.close()
            throw error
        }
    }
}
