import GRDB
import GRDBSQLite

extension SQLiteLedgerStore: BulkLoading {
    /// The writer's page cache during a fill, in KiB: the indexes kept (the unique ones)
    /// are written at random places, which a small cache turns into reads of the file.
    static let bulkLoadCacheKibibytes = 1 << 20

    /// Drops the non-unique indexes of `tables` and the triggers of ``BulkLoadRebuild/of(_:)``,
    /// gives the writer connection a large page cache and stops it waiting for the disk
    /// (`synchronous = OFF`: a fill cut short is thrown away whole). Returns the indexes'
    /// `CREATE` statements, the rebuilds' statements, the triggers' `CREATE` statements, then
    /// those that put the connection's settings back.
    func beginBulkLoad(of tables: [String]) async throws -> [String] {
        do {
            return try await writer.writeWithoutTransaction { db in
                let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0
                var creates: [String] = []
                for table in tables {
                    for index in try Row.fetchAll(
                        db, sql: "SELECT name, \"unique\", origin FROM pragma_index_list(?)", arguments: [table])
                    where index["unique"] == 0 && index["origin"] == "c" {
                        let name: String = index["name"]
                        guard
                            let create = try String.fetchOne(
                                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?",
                                arguments: [name])
                        else { continue }
                        try db.execute(sql: "DROP INDEX \"\(name)\"")
                        creates.append(create)
                    }
                }
                let rebuilds = BulkLoadRebuild.of(tables)
                creates += rebuilds.map(\.statement)
                for trigger in rebuilds.flatMap(\.triggers) {
                    guard
                        let create = try String.fetchOne(
                            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                            arguments: [trigger.name])
                    else { continue }
                    try db.execute(sql: "DROP TRIGGER \"\(trigger.name)\"")
                    creates.append(create)
                }
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: "PRAGMA cache_size = -\(Self.bulkLoadCacheKibibytes)")
                return creates + [
                    "PRAGMA cache_size = \(cacheSize)", "PRAGMA synchronous = FULL", "PRAGMA wal_checkpoint(TRUNCATE)",
                ]
            }
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }

    /// Runs `statements` in order, each by itself: ``beginBulkLoad(of:)``'s indexes and
    /// settings, then a checkpoint that empties the write-ahead log into the file.
    func finishBulkLoad(rebuilding statements: [String]) async throws {
        do {
            try await writer.writeWithoutTransaction { db in
                for statement in statements { try db.execute(sql: statement) }
            }
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }

    /// Inserts every row with one prepared statement per table, in one write transaction,
    /// binding each value with SQLite's own calls.
    func bulkLoad(_ tables: [BulkRows]) async throws {
        do {
            try await writer.write { db in
                for rows in tables where rows.count > 0 {
                    let placeholders = Array(repeating: "?", count: rows.columns.count).joined(separator: ", ")
                    let insert = LedgerStatement(
                        "INSERT INTO \(rows.table) (\(rows.columns.joined(separator: ", "))) VALUES (\(placeholders))")
                    let statement = try db.makeStatement(sql: insert.sql)
                    let handle = statement.sqliteStatement
                    var column: Int32 = 0
                    for value in rows.values {
                        column += 1
                        let code: Int32
                        switch value {
                        case .text(let text): code = Database.bind(text, at: column, to: handle)
                        case .integer(let integer), .milliseconds(let integer):
                            code = sqlite3_bind_int64(handle, column, integer)
                        case .null: code = sqlite3_bind_null(handle, column)
                        }
                        guard code == SQLITE_OK else { throw db.error(code, insert) }
                        if column == rows.columns.count {
                            let stepped = sqlite3_step(handle)
                            guard stepped == SQLITE_DONE else { throw db.error(stepped, insert) }
                            sqlite3_reset(handle)
                            column = 0
                        }
                    }
                    withExtendedLifetime(statement) {}
                }
            }
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }
}
