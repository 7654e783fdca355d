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

    /// Runs an operation that only reads.
    func read<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

    /// Runs an operation in one write transaction: committed when it returns, rolled back
    /// when it throws.
    func write<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

    /// Runs a write of a single statement, which needs no explicit transaction
    /// (PostgreSQL: the statement commits by itself).
    func writeStatement<Value: Sendable>(_ operation: LedgerOperation<Value>) async throws -> Value

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
