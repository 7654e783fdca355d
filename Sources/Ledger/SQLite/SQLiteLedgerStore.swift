import Foundation
import GRDB

/// The embedded ledger: SQLite through GRDB, in WAL mode with `synchronous=FULL`, on one
/// file (or in memory).
///
/// Durability: every commit is fsynced to the write-ahead log before the operation returns,
/// so a delivery the server acknowledged survives power loss (with GRDB's default for WAL,
/// `NORMAL`, the last commits before a power cut can be lost after the device already
/// finished the transaction at Apple).
///
/// One writer at a time: write operations run on SQLite's single writer connection in
/// `BEGIN IMMEDIATE` transactions; those that arrive while a commit is under way share the
/// next transaction, each in a savepoint, and one sync to disk (``SQLiteGroupCommit``).
/// Other processes opening the same file are serialized by SQLite's lock and waited for up
/// to the busy timeout.
public final class SQLiteLedgerStore: SQLLedgerStore {
    /// The database connection(s).
    let writer: any DatabaseWriter
    /// Runs the write operations, committing those that wait together.
    let groupCommit: SQLiteGroupCommit
    /// How long a message handed out by ``dueOutboxMessages(now:limit:)`` stays claimed.
    let outboxClaim: TimeInterval
    /// The store's clock.
    let clock: @Sendable () -> Date
    /// Called at the checkpoints of write transactions (tests force interleavings with it).
    let hook: LedgerHook?

    /// Opens (creating if needed) the database file at `path`, in WAL mode.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - busyTimeout: How long to wait for another connection's write to finish.
    ///   - outboxClaim: How long a claimed outbox message is hidden from other workers.
    ///   - clock: The current time (tests pass their own).
    ///   - hook: Called at each ``LedgerPausePoint`` inside a write transaction (tests).
    public init(
        path: String,
        busyTimeout: TimeInterval = 10,
        outboxClaim: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() },
        hook: LedgerHook? = nil
    ) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.label = "storekeeper.ledger"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB sets the pool's writer to NORMAL when it turns WAL on, after
        // `prepareDatabase`; the writer connection lives as long as the pool.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        writer = pool
        groupCommit = SQLiteGroupCommit(writer: pool)
        self.outboxClaim = outboxClaim
        self.clock = clock
        self.hook = hook
    }

    /// Uses an open GRDB database (a `DatabasePool`, or a `DatabaseQueue`, e.g. in memory);
    /// `hook` is called at each ``LedgerPausePoint`` inside a write transaction (tests).
    public init(
        writer: any DatabaseWriter,
        outboxClaim: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() },
        hook: LedgerHook? = nil
    ) {
        self.writer = writer
        groupCommit = SQLiteGroupCommit(writer: writer)
        self.outboxClaim = outboxClaim
        self.clock = clock
        self.hook = hook
    }

    /// A private in-memory database (for tests and demos): gone when the store is.
    public static func inMemory(
        outboxClaim: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> SQLiteLedgerStore {
        SQLiteLedgerStore(writer: try DatabaseQueue(), outboxClaim: outboxClaim, clock: clock)
    }

    /// The current time at the ledger's resolution.
    var now: Date { clock().ledgerNormalized }

    var dialect: LedgerSQL.Dialect { .sqlite }

    var orderDeliveryInOneStatement: Bool { false }

    func migrate(through version: Int64) async throws {
        do {
            try await runMigrations(through: version)
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }

    private func runMigrations(through version: Int64) async throws {
        let applied = Date()
        try await writer.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version INTEGER NOT NULL PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_at INTEGER NOT NULL
                    )
                    """
            )
            let done = Set(try Int64.fetchAll(db, sql: "SELECT version FROM schema_migrations"))
            for migration in try LedgerSchema.pending(applied: done) where migration.version <= version {
                if migration.sqliteNeedsTrigramSearch { try Self.checkTrigramSearch(db) }
                for sql in migration.sqlite {
                    try db.execute(sql: sql)
                }
                try db.run(
                    LedgerStatement(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        [.integer(migration.version), .text(migration.name), .timestamp(applied)]
                    )
                )
            }
        }
    }

    /// Throws ``LedgerError/databaseFeatureMissing(_:)`` unless the linked SQLite has FTS5
    /// with its `trigram` tokenizer: creates (and drops) a temporary table that uses it.
    private static func checkTrigramSearch(_ db: Database) throws {
        do {
            try db.execute(
                sql: "CREATE VIRTUAL TABLE temp.storekeeper_trigram_check USING fts5(x, tokenize = 'trigram')")
            try db.execute(sql: "DROP TABLE temp.storekeeper_trigram_check")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            let version = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?"
            throw LedgerError.databaseFeatureMissing(
                "SQLite \(version) lacks FTS5's trigram tokenizer (\(error.message ?? "")): the ledger's player "
                    + "search needs SQLite 3.34 or later built with FTS5")
        }
    }

    public func close() async throws {
        try writer.close()
    }

    // Reads and writes report a full disk, an I/O error, a read-only or unopenable file as
    // ``LedgerError/storageUnavailable(_:detail:)`` (``LedgerError/classifyingSQLite(_:)``):
    // the catch costs nothing on the way of an operation that succeeds.

    func read<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        do {
            return try await writer.unsafeRead { db in
                try db.inLedgerTransaction(.deferred) { try db.perform(operation) }
            }
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }

    func readSnapshot<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        try await read(operation)
    }

    func write<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        do {
            return try await groupCommit.perform { [hook] db in try db.perform(operation, hook: hook) }
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }

    func writeAutocommit<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value {
        try await write(operation)
    }
}
