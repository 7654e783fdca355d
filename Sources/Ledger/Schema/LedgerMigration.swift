/// One versioned schema change, written for both databases. Versions are applied in
/// order, each at most once; the applied versions are kept in `schema_migrations`.
struct LedgerMigration: Sendable {
    /// The version (increasing, never reused).
    var version: Int64
    /// A short name for operators.
    var name: String
    /// The statements for SQLite, run in one transaction.
    var sqlite: [String]
    /// The statements for PostgreSQL, run in one transaction.
    var postgres: [String]
}
