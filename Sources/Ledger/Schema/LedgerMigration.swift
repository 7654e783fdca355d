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
    /// The indexes PostgreSQL builds with `CREATE INDEX CONCURRENTLY` after ``postgres``
    /// committed, one by one outside a transaction, so that writes to a large table go on
    /// while its index is built (see ``ConcurrentIndex``). The version is recorded when the
    /// last one is valid. A migration with any must keep ``postgres`` safe to run again (a
    /// crash between the two leaves the version unrecorded).
    var postgresConcurrentIndexes: [ConcurrentIndex] = []

    /// An index on a large PostgreSQL table, built without blocking writes.
    struct ConcurrentIndex: Sendable {
        /// The index's name (unique in the schema).
        var name: String
        /// What follows `CREATE INDEX CONCURRENTLY IF NOT EXISTS <name>`: `ON table (…) …`.
        var definition: String

        /// The statement that builds it; a valid index of that name already there is kept.
        var createStatement: String { "CREATE INDEX CONCURRENTLY IF NOT EXISTS \(name) \(definition)" }
    }
}
