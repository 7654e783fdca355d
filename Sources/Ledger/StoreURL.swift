/// Which ledger database to use, parsed from the server's `--database` URL.
public enum StoreURL: Sendable, Hashable {
    /// An SQLite database file (`sqlite:PATH`; `sqlite:///abs/path` also works).
    case sqlite(path: String)
    /// A private in-memory SQLite database (`sqlite::memory:`), for tests and demos.
    case sqliteInMemory
    /// A PostgreSQL database (`postgres://user:password@host:port/database`).
    case postgres(PostgresStoreURL)

    /// Parses a store URL; throws ``LedgerError/invalidStoreURL(_:reason:)`` for anything
    /// else.
    public init(parsing url: String) throws {
        let lowercased = url.lowercased()
        if lowercased.hasPrefix("sqlite:") {
            var path = String(url.dropFirst("sqlite:".count))
            if path == ":memory:" {
                self = .sqliteInMemory
                return
            }
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw LedgerError.invalidStoreURL(url, reason: "no file path") }
            self = .sqlite(path: path)
        } else if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") {
            self = .postgres(try PostgresStoreURL(parsing: url))
        } else {
            throw LedgerError.invalidStoreURL(url, reason: "unknown scheme")
        }
    }
}

/// Opens the ledger a store URL names: `sqlite:PATH`, `sqlite::memory:` or
/// `postgres://user:password@host:port/database`. Call ``LedgerStore/migrate()`` before
/// use and ``LedgerStore/close()`` at the end.
public func makeLedgerStore(url: String) throws -> any LedgerStore {
    switch try StoreURL(parsing: url) {
    case .sqlite(let path): try SQLiteLedgerStore(path: path)
    case .sqliteInMemory: try SQLiteLedgerStore.inMemory()
    case .postgres(let settings):
        PostgresLedgerStore(configuration: settings.clientConfiguration, orderDelivery: settings.orderDelivery)
    }
}
