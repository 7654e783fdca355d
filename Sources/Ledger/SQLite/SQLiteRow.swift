import Foundation
import GRDB
import GRDBSQLite

/// A row read straight from a SQLite statement: its values copied out column by column,
/// looked up by column name (a ledger statement returns a few columns).
struct SQLiteRow: LedgerRow {
    /// One column's value.
    enum Value {
        case null
        case integer(Int64)
        case text(String)
        /// A real or a blob, which no ledger column holds.
        case other(Int32)
    }

    /// The statement's column names, shared by its rows.
    let columns: [String]
    let values: [Value]

    func text(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        default: throw LedgerError.corruptRow("\(column) is not text")
        }
    }

    func integer(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .null: return nil
        case .integer(let integer): return integer
        default: throw LedgerError.corruptRow("\(column) is not an integer")
        }
    }

    func timestamp(_ column: String) throws -> Date? {
        try integer(column).map(Date.init(ledgerMilliseconds:))
    }

    private func value(_ column: String) throws -> Value {
        guard let index = columns.firstIndex(of: column) else {
            throw LedgerError.corruptRow("column \(column) missing")
        }
        return values[index]
    }
}

extension Database {
    /// Runs a statement and returns its rows: the statement is compiled once per connection
    /// (GRDB's statement cache) and its parameters bound and rows read with SQLite's own
    /// calls, without GRDB's argument and row values in between.
    func rows(_ statement: LedgerStatement) throws -> [SQLiteRow] {
        let handle = try cachedStatement(sql: statement.sql).sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        defer { sqlite3_reset(handle) }
        guard sqlite3_bind_parameter_count(handle) == statement.arguments.count else {
            throw LedgerError.database(
                message: "\(statement.arguments.count) arguments for \(sqlite3_bind_parameter_count(handle)) "
                    + "parameters in: \(statement.sql)",
                sqlState: nil)
        }
        for (offset, argument) in statement.arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch argument {
            case .text(let text): code = Self.bind(text, at: index, to: handle)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .timestamp(let date): code = sqlite3_bind_int64(handle, index, date.ledgerMilliseconds)
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw error(code, statement) }
        }
        let count = sqlite3_column_count(handle)
        var columns: [String] = []
        columns.reserveCapacity(Int(count))
        for column in 0..<count {
            columns.append(sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "")
        }
        var rows: [SQLiteRow] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw error(code, statement) }
            var values: [SQLiteRow.Value] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(handle, column) {
                case SQLITE_NULL: values.append(.null)
                case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(handle, column)))
                case SQLITE_TEXT:
                    let bytes = sqlite3_column_text(handle, column)
                    let length = Int(sqlite3_column_bytes(handle, column))
                    values.append(
                        .text(
                            bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
                                ?? ""))
                case let type: values.append(.other(type))
                }
            }
            rows.append(SQLiteRow(columns: columns, values: values))
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ statement: LedgerStatement) throws {
        _ = try rows(statement)
    }

    /// Binds `text` with its byte length (a NUL inside it is kept, not taken for its end).
    static func bind(_ text: String, at index: Int32, to handle: SQLiteStatement) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress, bytes.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, transient)
            }
            guard let length = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
            return UnsafeRawPointer(start).withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, length, transient)
            }
        }
    }

    /// SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// SQLite's error for a failed call, as GRDB reports it.
    func error(_ code: Int32, _ statement: LedgerStatement) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: sqlite3_errmsg(sqliteConnection).map { String(cString: $0) },
            sql: statement.sql)
    }
}
