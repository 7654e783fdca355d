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
    /// The PostgreSQL extensions ``postgres`` needs, created first in its transaction
    /// (`CREATE EXTENSION IF NOT EXISTS`); a server without one, or a role that may not
    /// create it, stops the migration with ``LedgerError/databaseFeatureMissing(_:)``.
    var postgresExtensions: [String] = []
    /// Backfills PostgreSQL runs after ``postgres`` committed and before
    /// ``postgresConcurrentIndexes`` are built, each in batches of their own transactions (see
    /// ``Backfill``), so that no long transaction holds the rows it writes. The version is
    /// recorded after them, and a crash runs them again: they must be safe to repeat.
    var postgresBackfills: [Backfill] = []
    /// Whether ``sqlite`` needs FTS5 and its `trigram` tokenizer (SQLite 3.34 or later built
    /// with FTS5): the runner checks first and stops with
    /// ``LedgerError/databaseFeatureMissing(_:)`` when they are missing.
    var sqliteNeedsTrigramSearch = false

    /// An index on a large PostgreSQL table, built without blocking writes.
    struct ConcurrentIndex: Sendable {
        /// The index's name (unique in the schema).
        var name: String
        /// What follows `CREATE INDEX CONCURRENTLY IF NOT EXISTS <name>`: `ON table (…) …`.
        var definition: String

        /// The statement that builds it; a valid index of that name already there is kept.
        var createStatement: String { "CREATE INDEX CONCURRENTLY IF NOT EXISTS \(name) \(definition)" }
    }

    /// A backfill that walks a large table in key order, one batch per transaction.
    struct Backfill: Sendable {
        /// One batch: takes the greatest key of the batch before (`''` for the first) as its
        /// one argument, writes the rows of a bounded number of keys from that key on (the key
        /// itself included) and answers one row, `last`: the greatest key it took (NULL when
        /// none). The backfill ends with a batch whose `last` is NULL or the key it started
        /// from.
        var batch: String
        /// A statement run first in each batch's transaction, before ``batch`` (nil: none):
        /// a `LOCK TABLE` that makes the batch wait for the writes in progress and holds off
        /// new ones until it commits (``LedgerSchema/deliveryDays``).
        var lock: String? = nil
    }
}
