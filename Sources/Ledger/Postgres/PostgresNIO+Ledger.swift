import Foundation
import PostgresNIO

extension PostgresRandomAccessRow: LedgerRow {
    func text(_ column: String) throws -> String? {
        try decode(String?.self, column)
    }

    func integer(_ column: String) throws -> Int64? {
        try decode(Int64?.self, column)
    }

    func timestamp(_ column: String) throws -> Date? {
        try decode(Date?.self, column)?.ledgerNormalized
    }

    private func decode<Value: PostgresDecodable>(_ type: Value.Type, _ column: String) throws -> Value {
        guard contains(column) else { throw LedgerError.corruptRow("column \(column) missing") }
        do {
            return try self[column].decode(type)
        } catch {
            throw LedgerError.corruptRow("\(column): \(String(reflecting: error))")
        }
    }
}

extension SQLArgument {
    /// Binds the value for PostgreSQL (`text`, `int8`, `timestamptz`, or an untyped NULL).
    func append(to bindings: inout PostgresBindings) {
        switch self {
        case .text(let text): bindings.append(text)
        case .integer(let integer): bindings.append(integer)
        case .timestamp(let date): bindings.append(date.clampedToPostgres)
        case .null: bindings.appendNull()
        }
    }
}

extension LedgerStatement {
    /// The statement as PostgresNIO runs it.
    var postgresQuery: PostgresQuery {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            argument.append(to: &bindings)
        }
        return PostgresQuery(unsafeSQL: postgresSQL, binds: bindings)
    }
}

extension PostgresConnection {
    /// Runs a statement and returns all its rows.
    func rows(_ statement: LedgerStatement, logger: Logger) async throws -> [PostgresRandomAccessRow] {
        try await query(statement.postgresQuery, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    /// Runs a statement, discarding any rows.
    func run(_ statement: LedgerStatement, logger: Logger) async throws {
        _ = try await query(statement.postgresQuery, logger: logger).collect()
    }

    /// Runs an operation's statements one after the other, in the caller's transaction (if
    /// any), calling `hook` at its pause points.
    func perform<Value>(_ operation: LedgerOperation<Value>, hook: LedgerHook?, logger: Logger) async throws -> Value {
        var operation = operation
        while true {
            switch operation {
            case .finished(let result): return try result.get()
            case .statement(let statement, let next): operation = try next(try await rows(statement, logger: logger))
            case .pause(let point, let next):
                await hook?(point)
                operation = try next()
            }
        }
    }
}

extension PSQLError {
    /// The server's SQLSTATE, when the server refused the statement.
    var sqlState: String? { serverInfo?[.sqlState] }

    /// Whether running the whole transaction again may succeed (serialization failure,
    /// deadlock).
    var isTransient: Bool { LedgerError.isTransient(sqlState) }

    /// The error as the ledger reports it: a storage fault (``StorageFault/init(sqlState:)``)
    /// as ``LedgerError/storageUnavailable(_:detail:)``, and a failure of the connection
    /// (no server answer) as ``StorageFault/unreachable``, each with the server's SQLSTATE
    /// and message or the client's detailed description; any other refusal with the server's
    /// message and SQLSTATE.
    var ledgerError: LedgerError {
        if let message = serverInfo?[.message] {
            var text = message
            if let detail = serverInfo?[.detail] { text += " (\(detail))" }
            if let fault = StorageFault(sqlState: sqlState) {
                return .storageUnavailable(fault, detail: "PostgreSQL \(sqlState ?? ""): \(text)")
            }
            return .database(message: text, sqlState: sqlState)
        }
        return .storageUnavailable(.unreachable, detail: "\(code): \(String(reflecting: underlying ?? self))")
    }
}

extension Date {
    /// The earliest and latest instants PostgreSQL's `timestamptz` holds (4713 BC, 294276 AD).
    private static let postgresRange =
        Date(timeIntervalSince1970: -210_866_803_200)...Date(timeIntervalSince1970: 9_224_318_015_999)

    /// This date within ``postgresRange`` (NaN as 1970): PostgresNIO's encoder traps on a
    /// date whose microseconds since 2000 overflow 64 bits, and PostgreSQL refuses one out
    /// of its range. Only a date no real purchase has can be clamped.
    var clampedToPostgres: Date {
        if timeIntervalSince1970.isNaN { return Date(timeIntervalSince1970: 0) }
        return min(max(self, Self.postgresRange.lowerBound), Self.postgresRange.upperBound)
    }
}

extension StorageFault {
    /// The storage fault a PostgreSQL SQLSTATE is, or `nil` for a refusal of the statement
    /// itself: disk full (`53100`) and I/O error (`58030`); a read-only transaction (`25006`,
    /// a standby); a connection exception (class `08`), an administrator's or crash shutdown,
    /// or a server not yet accepting connections (`57P01` to `57P03`), or another lack of
    /// resources (class `53`: memory, connections) as ``unreachable``.
    init?(sqlState: String?) {
        guard let sqlState else { return nil }
        switch sqlState {
        case "53100": self = .full
        case "58030": self = .ioError
        case "25006": self = .readOnly
        case "57P01", "57P02", "57P03": self = .unreachable
        default:
            guard sqlState.hasPrefix("08") || sqlState.hasPrefix("53") else { return nil }
            self = .unreachable
        }
    }
}
