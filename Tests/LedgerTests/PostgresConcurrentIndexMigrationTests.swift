import Foundation
import LedgerTestSupport
import PostgresNIO
import Testing

@testable import Ledger

/// Migration 13 (``LedgerSchema/historyIndexes``) builds its PostgreSQL indexes with
/// `CREATE INDEX CONCURRENTLY`, outside the migration's transaction: a delivery commits
/// while an index on `purchases` is being built, and an invalid index that an interrupted
/// build left behind is dropped and built again.
struct PostgresConcurrentIndexMigrationTests {
    @Test("a delivery commits while the migration builds an index on purchases")
    func writersAreNotBlockedByTheBuild() async throws {
        let database = try await Self.filledAtVersion12()
        // The paused delivery has inserted its purchase and waits at its entitlement: the
        // build must wait for its transaction (it holds a write lock on purchases).
        let inFlight = try PausedDelivery(url: database.url)
        let store = inFlight.store
        let paused = await inFlight.start()
        let migration = Task { try await store.migrate() }
        do {
            try await Self.waitUntilABuildWaits(store)
            let during = try await store.deliver(Fixture.delivery())
            guard case .delivered = during else {
                Issue.record("the delivery during the build was \(during)")
                return
            }
            #expect(try await Self.buildWaits(store), "the build was still running when the delivery committed")
            #expect(try await Self.count(store, "SELECT count(*) FROM schema_migrations WHERE version = 13") == 0)
            inFlight.release()
            _ = try await paused.value
            try await migration.value
            #expect(try await Self.validHistoryIndexes(store) == 4)
            #expect(try await Self.count(store, "SELECT count(*) FROM schema_migrations WHERE version = 13") == 1)
            try await store.close()
        } catch {
            inFlight.release()
            _ = try? await paused.value
            _ = try? await migration.value
            try? await store.close()
            throw error
        }
    }

    @Test("an invalid index an interrupted build left is dropped and built again")
    func invalidIndexIsRebuilt() async throws {
        let database = try await PostgresCluster.shared.createDatabase()
        let store = try PostgresLedgerStore(url: database.url)
        do {
            try await store.migrate(through: 12)
            // Two purchases of one player: a unique index on the player fails half built,
            // INVALID, under the name migration 13 builds, as a crash would leave it.
            _ = try await store.deliver(Fixture.delivery(player: "twice"))
            _ = try await store.deliver(Fixture.delivery(player: "twice"))
            await #expect(throws: (any Error).self) {
                try await PostgresCluster.shared.execute(
                    database: database.name,
                    "CREATE UNIQUE INDEX CONCURRENTLY purchases_flagged ON purchases (player_id)")
            }
            #expect(
                try await Self.count(
                    store,
                    "SELECT count(*) FROM pg_index WHERE indexrelid = to_regclass('purchases_flagged') AND NOT indisvalid"
                ) == 1)

            try await store.migrate()
            #expect(try await Self.validHistoryIndexes(store) == 4)
            let definition = try await store.client.query(
                "SELECT pg_get_indexdef(to_regclass('purchases_flagged')) AS definition"
            ).collect().first?.decode(String.self)
            #expect(definition?.contains("UNIQUE") == false)
            #expect(definition?.contains("WHERE (flags <> '[]'::text)") == true, "\(definition ?? "none")")
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// A new database with a filled ledger as version 12 left it: migration 13's indexes
    /// dropped and its version forgotten.
    private static func filledAtVersion12() async throws -> (url: String, name: String) {
        let database = try await PostgresCluster.shared.createDatabase()
        let filling = try PostgresLedgerStore(url: database.url)
        do {
            _ = try await HistoryFill.fill(
                filling, purchases: 300, products: HistoryFillTests.products, random: SeededGenerator(seed: 13))
            try await filling.close()
        } catch {
            try? await filling.close()
            throw error
        }
        let names = LedgerSchema.historyIndexes.postgresConcurrentIndexes.map(\.name)
        try await PostgresCluster.shared.execute(
            database: database.name,
            "DROP INDEX \(names.joined(separator: ", ")); DELETE FROM schema_migrations WHERE version = 13")
        return database
    }

    /// Whether a `CREATE INDEX CONCURRENTLY` of this database waits for a lock now.
    private static func buildWaits(_ store: PostgresLedgerStore) async throws -> Bool {
        try await count(
            store,
            """
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
            AND wait_event_type = 'Lock' AND query LIKE 'CREATE INDEX CONCURRENTLY%'
            """) > 0
    }

    /// Polls until the migration's build waits for the paused delivery (how long it takes
    /// does not matter: nothing moves the delivery on until the test does).
    private static func waitUntilABuildWaits(_ store: PostgresLedgerStore) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await !buildWaits(store) {
            guard ContinuousClock.now < deadline else {
                Issue.record("no index build waited within 60 s")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How many of migration 13's indexes are there and valid.
    private static func validHistoryIndexes(_ store: PostgresLedgerStore) async throws -> Int64 {
        let names = LedgerSchema.historyIndexes.postgresConcurrentIndexes.map { "'\($0.name)'" }
        return try await count(
            store,
            """
            SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE c.relname IN (\(names.joined(separator: ", "))) AND i.indisvalid
            """)
    }

    /// The one integer `sql` (written by the test, no input) returns.
    private static func count(_ store: PostgresLedgerStore, _ sql: String) async throws -> Int64 {
        try await store.client.query(PostgresQuery(unsafeSQL: sql)).collect().first?.decode(Int64.self) ?? -1
    }
}
