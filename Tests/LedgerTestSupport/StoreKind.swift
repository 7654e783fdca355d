import Foundation
import Ledger
import TestProcesses

/// The two ledger implementations; every behaviour test runs against both.
public enum StoreKind: String, CaseIterable, Sendable {
    case sqlite
    case postgres

    /// A fresh, empty database of this kind (not yet migrated).
    public func makeDatabase() async throws -> TestDatabase {
        StallWatchdog.startOnce()
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("storekeeper-ledger-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return TestDatabase(kind: self, url: "sqlite:\(directory)/ledger.sqlite", name: nil, directory: directory)
        case .postgres:
            let database = try await PostgresCluster.shared.createDatabase()
            return TestDatabase(kind: self, url: database.url, name: database.name, directory: nil)
        }
    }
}

/// One test's database: open as many stores on it as the test needs (several stores on
/// one database behave like several server processes).
public struct TestDatabase: Sendable {
    public var kind: StoreKind
    /// The store URL, as `storekeeper serve --database` takes it.
    public var url: String
    /// The PostgreSQL database name.
    public var name: String?
    /// The SQLite file's directory, removed by ``remove()``.
    public var directory: String?

    /// Opens a store on the database (through the URL factory).
    public func open() throws -> any LedgerStore {
        try makeLedgerStore(url: url)
    }

    /// Opens a store on the database that reads the time from `clock` (not migrated).
    public func open(clock: ManualClock) throws -> any LedgerStore {
        let now: @Sendable () -> Date = { clock.now }
        switch try StoreURL(parsing: url) {
        case .sqlite(let path): return try SQLiteLedgerStore(path: path, clock: now)
        case .postgres(let settings):
            return PostgresLedgerStore(configuration: settings.clientConfiguration, clock: now)
        case .sqliteInMemory: throw LedgerError.invalidStoreURL(url, reason: "a test database has a file")
        }
    }

    /// Removes the SQLite files (PostgreSQL databases go with the cluster).
    public func remove() {
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }
}

/// Runs `body` with a migrated store on a fresh database of `kind`, and cleans up.
public func withStore<Result>(
    _ kind: StoreKind,
    _ body: (any LedgerStore, TestDatabase) async throws -> Result
) async throws -> Result {
    let database = try await kind.makeDatabase()
    defer { database.remove() }
    let store = try database.open()
    do {
        try await store.migrate()
        let result = try await body(store, database)
        try await store.close()
        return result
    } catch {
        try? await store.close()
        throw error
    }
}

/// Runs `body` with `count` migrated stores (separate connection pools) on one database.
public func withStores<Result>(
    _ kind: StoreKind,
    count: Int,
    _ body: ([any LedgerStore], TestDatabase) async throws -> Result
) async throws -> Result {
    let database = try await kind.makeDatabase()
    defer { database.remove() }
    var stores: [any LedgerStore] = []
    do {
        for _ in 0..<count {
            let store = try database.open()
            stores.append(store)
            try await store.migrate()
        }
        let result = try await body(stores, database)
        for store in stores { try await store.close() }
        return result
    } catch {
        for store in stores { try? await store.close() }
        throw error
    }
}
