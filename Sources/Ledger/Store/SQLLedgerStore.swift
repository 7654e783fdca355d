import Foundation

/// A ``LedgerStore`` on a SQL database that runs ``LedgerOperation``s: its extensions
/// implement every ``LedgerStore`` requirement except migrations and closing once, for
/// ``SQLiteLedgerStore`` and ``PostgresLedgerStore``. A conforming store only says how it
/// runs an operation.
///
/// (The extensions' members are declared `public`: a public member of an extension of an
/// internal protocol witnesses the public ``LedgerStore`` requirement.)
protocol SQLLedgerStore: LedgerStore {
    /// The current time at the ledger's resolution.
    var now: Date { get }
    /// How long a message handed out by ``dueOutboxMessages(now:limit:)`` stays claimed.
    var outboxClaim: TimeInterval { get }
    /// Where the database's SQL differs.
    var dialect: LedgerSQL.Dialect { get }
    /// Whether a delivery by order runs as one statement (PostgreSQL's function,
    /// ``PostgresOrderDelivery/function``) rather than as an operation of statements.
    var orderDeliveryInOneStatement: Bool { get }

    /// Runs an operation that only reads, each statement against the latest committed
    /// data: on PostgreSQL each statement runs by itself (no transaction, one round trip),
    /// so the statements of an operation may see different commits; on SQLite the operation
    /// runs in one read transaction. An operation whose statements must agree uses
    /// ``readSnapshot(_:)``.
    func read<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

    /// Runs an operation that only reads in one snapshot: all its statements see the same
    /// committed state (PostgreSQL: a read-only `REPEATABLE READ` transaction; SQLite: one
    /// read transaction, as ``read(_:)``).
    func readSnapshot<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

    /// Runs an operation in one write transaction: committed when it returns, rolled back
    /// when it throws.
    func write<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

    /// Runs a write of a single statement with no explicit transaction: on PostgreSQL the
    /// statement commits by itself (autocommit, one round trip); SQLite runs it as a write
    /// transaction of its own.
    func writeAutocommit<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

    /// Applies the migrations up to `version` that the ledger lacks (an older release's
    /// schema, for upgrade tests; ``LedgerStore/migrate()`` is this with the newest version).
    func migrate(through version: Int64) async throws
}

extension SQLLedgerStore {
    public func migrate() async throws {
        try await migrate(through: LedgerSchema.newestVersion)
    }

    public func appliedMigrations() async throws -> [Int64] {
        try await read(.rows(LedgerSQL.appliedMigrations, { try $0.requiredInteger("version") }))
    }
}
