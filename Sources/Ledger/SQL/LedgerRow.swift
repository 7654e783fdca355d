import Foundation

/// A fetched row, read the same way whichever database it came from.
protocol LedgerRow {
    /// The text in `column`, or `nil` for NULL.
    func text(_ column: String) throws -> String?
    /// The integer in `column`, or `nil` for NULL.
    func integer(_ column: String) throws -> Int64?
    /// The point in time in `column` (at the ledger's resolution), or `nil` for NULL.
    func timestamp(_ column: String) throws -> Date?
}

extension LedgerRow {
    /// The text in a NOT NULL column.
    func requiredText(_ column: String) throws -> String {
        guard let value = try text(column) else { throw LedgerError.corruptRow("\(column) is NULL") }
        return value
    }

    /// The integer in a NOT NULL column.
    func requiredInteger(_ column: String) throws -> Int64 {
        guard let value = try integer(column) else { throw LedgerError.corruptRow("\(column) is NULL") }
        return value
    }

    /// The point in time in a NOT NULL column.
    func requiredTimestamp(_ column: String) throws -> Date {
        guard let value = try timestamp(column) else { throw LedgerError.corruptRow("\(column) is NULL") }
        return value
    }

    /// A stored enumeration value.
    func enumeration<Value: RawRepresentable>(_ type: Value.Type, _ column: String) throws -> Value
    where Value.RawValue == String {
        let raw = try requiredText(column)
        guard let value = Value(rawValue: raw) else {
            throw LedgerError.corruptRow("\(column) has unknown value \"\(raw)\"")
        }
        return value
    }
}
