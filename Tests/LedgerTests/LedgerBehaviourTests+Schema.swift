import Foundation
import GRDB
import Ledger
import LedgerTestSupport
import Testing

extension LedgerBehaviourTests {
    @Test("migrations are idempotent and a reopened database keeps its data", arguments: StoreKind.allCases)
    func migrations(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }

        let first = try database.open()
        try await first.migrate()
        try await first.migrate()
        #expect(
            try await first.appliedMigrations() == Array(1...25))
        let delivery = Fixture.delivery()
        let purchase = try await first.deliver(delivery).purchase
        try await first.setCheckpoint("c", value: "v")
        try await first.close()

        let reopened = try database.open()
        try await reopened.migrate()
        #expect(
            try await reopened.appliedMigrations() == Array(1...25))
        #expect(try await reopened.wallet(playerId: "player-1") == ["coins": 100])
        #expect(try await reopened.purchase(store: .appStore, transactionId: delivery.transactionId) == purchase)
        #expect(try await reopened.deliver(delivery) == .alreadyDelivered(purchase))
        #expect(try await reopened.checkpoint("c") == "v")
        try await reopened.close()
    }

    @Test("processes starting at once migrate once", arguments: StoreKind.allCases)
    func concurrentMigrations(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let stores = try (0..<4).map { _ in try database.open() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask { try await store.migrate() }
            }
            try await group.waitForAll()
        }
        #expect(
            try await stores[0].appliedMigrations() == Array(1...25))
        _ = try await stores[1].deliver(Fixture.delivery())
        #expect(try await stores[2].wallet(playerId: "player-1") == ["coins": 100])
        for store in stores { try await store.close() }
    }

    @Test("a ledger a newer release migrated is refused, unchanged", arguments: StoreKind.allCases)
    func newerSchemaIsRefused(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try database.open()
        try await store.migrate()
        let applied = try await store.appliedMigrations()
        let known = try #require(applied.last)
        _ = try await store.deliver(Fixture.delivery())
        try await store.close()

        let future = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(known + 1), 'future', "
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: try #require(database.directory) + "/ledger.sqlite")
            try await queue.write { try $0.execute(sql: future + "0)") }
            try queue.close()
        case .postgres:
            try await PostgresCluster.shared.execute(database: try #require(database.name), future + "now())")
        }

        let older = try database.open()
        let refused = await #expect(throws: LedgerError.self) { try await older.migrate() }
        #expect(refused == .schemaNewerThanBuild(version: known + 1, newestKnown: known))
        #expect(
            refused?.description.contains("version \(known + 1), newer than this storekeeper knows (\(known))") == true)
        #expect(try await older.appliedMigrations() == applied + [known + 1])
        #expect(try await older.wallet(playerId: "player-1") == ["coins": 100])
        try await older.close()
    }
}
