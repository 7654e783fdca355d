import Foundation
import GRDB

extension Row: LedgerRow {
    func text(_ column: String) throws -> String? {
        let value: DatabaseValue = self[column]
        switch value.storage {
        case .null: return nil
        case .string(let text): return text
        default: throw LedgerError.corruptRow("\(column) is not text")
        }
    }

    func integer(_ column: String) throws -> Int64? {
        let value: DatabaseValue = self[column]
        switch value.storage {
        case .null: return nil
        case .int64(let integer): return integer
        default: throw LedgerError.corruptRow("\(column) is not an integer")
        }
    }

    func timestamp(_ column: String) throws -> Date? {
        try integer(column).map(Date.init(ledgerMilliseconds:))
    }
}

extension SQLArgument {
    /// The value bound for SQLite. Times are epoch milliseconds.
    var sqliteValue: DatabaseValue {
        switch self {
        case .text(let text): text.databaseValue
        case .integer(let integer): integer.databaseValue
        case .timestamp(let date): date.ledgerMilliseconds.databaseValue
        case .null: .null
        }
    }
}

extension Database {
    /// Runs a statement and returns its rows.
    func rows(_ statement: LedgerStatement) throws -> [Row] {
        let prepared = try cachedStatement(sql: statement.sql)
        return try Row.fetchAll(prepared, arguments: StatementArguments(statement.arguments.map(\.sqliteValue)))
    }

    /// Runs a statement that returns no rows.
    func run(_ statement: LedgerStatement) throws {
        let prepared = try cachedStatement(sql: statement.sql)
        try prepared.execute(arguments: StatementArguments(statement.arguments.map(\.sqliteValue)))
    }

    /// Runs an operation's statements one after the other, in the caller's transaction,
    /// calling `hook` at its checkpoints.
    ///
    /// GRDB runs the transaction synchronously on its writer's queue (not a thread of
    /// Swift's cooperative pool), so the queue waits for the asynchronous hook; nothing else
    /// runs on it meanwhile, as nothing else may write while the transaction is open.
    func perform<Value>(_ operation: LedgerOperation<Value>, hook: LedgerHook? = nil) throws -> Value {
        var operation = operation
        while true {
            switch operation {
            case .finished(let result): return try result.get()
            case .statement(let statement, let next): operation = try next(try rows(statement))
            case .checkpoint(let checkpoint, let next):
                if let hook {
                    let returned = DispatchSemaphore(value: 0)
                    Task {
                        await hook(checkpoint)
                        returned.signal()
                    }
                    returned.wait()
                }
                operation = try next()
            }
        }
    }
}
