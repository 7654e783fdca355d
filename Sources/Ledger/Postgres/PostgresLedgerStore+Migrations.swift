import Foundation
import PostgresNIO

/// The PostgreSQL migration runner: each pending migration's statements in one transaction,
/// then its ``LedgerMigration/postgresConcurrentIndexes`` built one by one outside any
/// transaction (`CREATE INDEX CONCURRENTLY` cannot run in one), so that no migration blocks
/// the writes to a large table while it builds an index on it.
extension PostgresLedgerStore {
    func migrate(through version: Int64) async throws {
        let applied = Date()
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await onConnection { connection in
                    try await self.migrate(on: connection, through: version, applied: applied)
                }
                return
            } catch LedgerError.database(_, let sqlState) where LedgerError.isTransient(sqlState) && attempt < 5 {
                continue
            }
        }
    }

    /// Runs the pending migrations on `connection` under the session-level advisory lock
    /// ``LedgerSchema/postgresMigrationLockKey`` (the key earlier releases lock for their
    /// migration's transaction), held across the concurrent index builds too, so that
    /// processes starting at once migrate one after the other and never build (or drop) the
    /// same index. A process waits for the lock by trying again every 50 ms, not in
    /// `pg_advisory_lock`: a session waiting inside a statement holds a snapshot, which a
    /// concurrent build waits for (an undetected deadlock, or a detected one that fails a
    /// start).
    private func migrate(on connection: PostgresConnection, through version: Int64, applied: Date) async throws {
        let key = [SQLArgument.integer(LedgerSchema.postgresMigrationLockKey)]
        let tryLock = LedgerStatement("SELECT CASE WHEN pg_try_advisory_lock(?) THEN 1 ELSE 0 END AS locked", key)
        while try await connection.rows(tryLock, logger: logger).first?.requiredInteger("locked") != 1 {
            try await Task.sleep(for: .milliseconds(50))
        }
        do {
            try await runMigrations(on: connection, through: version, applied: applied)
        } catch {
            do {
                try await connection.run(LedgerStatement("SELECT pg_advisory_unlock(?)", key), logger: logger)
            } catch {
                // The lock may still be held: the connection must not go back to the pool.
                try? await connection.close()
            }
            throw error
        }
        try await connection.run(LedgerStatement("SELECT pg_advisory_unlock(?)", key), logger: logger)
    }

    private func runMigrations(on connection: PostgresConnection, through version: Int64, applied: Date)
        async throws
    {
        try await connection.run(
            LedgerStatement(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT NOT NULL PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL
                )
                """
            ),
            logger: logger
        )
        let done = Set(
            try await connection.rows(LedgerStatement("SELECT version FROM schema_migrations"), logger: logger)
                .map { try $0.requiredInteger("version") }
        )
        for migration in try LedgerSchema.pending(applied: done) where migration.version <= version {
            let concurrent = migration.postgresConcurrentIndexes
            let record = LedgerStatement(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                [.integer(migration.version), .text(migration.name), .timestamp(applied)]
            )
            try await inTransaction(on: connection) { connection in
                for name in migration.postgresExtensions {
                    try await self.createExtension(name, on: connection)
                }
                for sql in migration.postgres {
                    try await connection.run(LedgerStatement(sql), logger: self.logger)
                }
                if concurrent.isEmpty && migration.postgresBackfills.isEmpty {
                    try await connection.run(record, logger: self.logger)
                }
            }
            guard !concurrent.isEmpty || !migration.postgresBackfills.isEmpty else { continue }
            for backfill in migration.postgresBackfills {
                try await run(backfill, on: connection)
            }
            for index in concurrent {
                try await build(index, on: connection)
            }
            try await connection.run(record, logger: logger)
        }
    }

    /// Creates the extension `name` unless the database has it, or throws
    /// ``LedgerError/databaseFeatureMissing(_:)`` saying why it cannot.
    private func createExtension(_ name: String, on connection: PostgresConnection) async throws {
        do {
            try await connection.run(LedgerStatement("CREATE EXTENSION IF NOT EXISTS \(name)"), logger: logger)
        } catch let error as PSQLError where ["42501", "58P01", "0A000"].contains(error.sqlState) {
            // Not permitted (42501), not installed (58P01: no control file), not available
            // (0A000): anything else, such as a deadlock to retry, is passed through.
            let message = error.serverInfo?[.message] ?? ""
            throw LedgerError.databaseFeatureMissing(
                "PostgreSQL extension \(name) (\(error.sqlState ?? ""): \(message)): the server must have it installed "
                    + "(PostgreSQL's contrib modules: Debian's postgresql-15 holds them), and the ledger's role must own the "
                    + "database or have CREATE on it (\(name) is a trusted extension), or a superuser creates it "
                    + "once: CREATE EXTENSION \(name)")
        }
    }

    /// Runs `backfill` batch after batch, each in a transaction of its own (its
    /// ``LedgerMigration/Backfill/lock`` first), until a batch takes no key past the one it
    /// started from.
    func run(_ backfill: LedgerMigration.Backfill, on connection: PostgresConnection) async throws {
        var from = ""
        while true {
            let batch = LedgerStatement(backfill.batch, [.text(from)])
            let last: String?
            if let lock = backfill.lock {
                last = try await inTransaction(on: connection) { connection in
                    try await connection.run(LedgerStatement(lock), logger: self.logger)
                    return try await connection.rows(batch, logger: self.logger).first?.text("last")
                }
            } else {
                last = try await connection.rows(batch, logger: logger).first?.text("last")
            }
            guard let last, last != from else { return }
            from = last
        }
    }

    /// Builds `index` with `CREATE INDEX CONCURRENTLY`, first dropping (also concurrently) an
    /// invalid index of its name: what a build interrupted by a crash or a cancel leaves.
    private func build(_ index: LedgerMigration.ConcurrentIndex, on connection: PostgresConnection) async throws {
        let state = try await connection.rows(
            LedgerStatement(
                "SELECT CASE WHEN indisvalid THEN 1 ELSE 0 END AS valid FROM pg_index WHERE indexrelid = to_regclass(?)",
                [.text(index.name)]
            ),
            logger: logger
        )
        if let row = state.first, try row.requiredInteger("valid") == 0 {
            logger.notice(
                "dropping the invalid index an interrupted migration left", metadata: ["index": "\(index.name)"])
            try await connection.run(LedgerStatement("DROP INDEX CONCURRENTLY IF EXISTS \(index.name)"), logger: logger)
        }
        try await connection.run(LedgerStatement(index.createStatement), logger: logger)
    }
}
