import GRDB

extension SQLiteLedgerStore: BulkLoading {
    /// Inserts every row with one prepared statement per table, in one write transaction.
    func bulkLoad(_ tables: [BulkRows]) async throws {
        do {
            try await writer.write { db in
                for rows in tables where rows.count > 0 {
                    let placeholders = Array(repeating: "?", count: rows.columns.count).joined(separator: ", ")
                    let statement = try db.makeStatement(
                        sql:
                            "INSERT INTO \(rows.table) (\(rows.columns.joined(separator: ", "))) VALUES (\(placeholders))"
                    )
                    var row: [DatabaseValue] = []
                    row.reserveCapacity(rows.columns.count)
                    for value in rows.values {
                        row.append(value.sqliteValue)
                        if row.count == rows.columns.count {
                            statement.setUncheckedArguments(StatementArguments(row))
                            try statement.execute()
                            row.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
        } catch {
            throw LedgerError.classifyingSQLite(error)
        }
    }
}

extension BulkValue {
    /// The value as SQLite stores it: times as epoch milliseconds.
    fileprivate var sqliteValue: DatabaseValue {
        switch self {
        case .text(let text): text.databaseValue
        case .integer(let integer), .milliseconds(let integer): integer.databaseValue
        case .null: .null
        }
    }
}
