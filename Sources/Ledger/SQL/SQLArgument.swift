import Foundation

/// A statement parameter, independent of the database it is bound for.
enum SQLArgument: Sendable, Hashable {
    /// Text.
    case text(String)
    /// A 64-bit integer.
    case integer(Int64)
    /// A point in time (SQLite: epoch milliseconds; PostgreSQL: `timestamptz`).
    case timestamp(Date)
    /// SQL NULL.
    case null

    /// Text, or NULL for `nil`.
    static func optional(_ value: String?) -> SQLArgument {
        value.map(SQLArgument.text) ?? .null
    }

    /// A point in time, or NULL for `nil`.
    static func optional(_ value: Date?) -> SQLArgument {
        value.map(SQLArgument.timestamp) ?? .null
    }
}
