import Foundation

/// The statements both stores run, written once in the dialect SQLite and PostgreSQL share
/// (`INSERT … ON CONFLICT`, `RETURNING`). ``LedgerWrites`` and ``SQLLedgerStore`` put them
/// together into operations.
enum LedgerSQL {
    /// Which database a statement is for, where the SQL differs.
    enum Dialect: Sendable {
        /// SQLite (one writer at a time).
        case sqlite
        /// PostgreSQL (many concurrent writers).
        case postgres
    }

    static let appliedMigrations = LedgerStatement("SELECT version FROM schema_migrations ORDER BY version")
}
