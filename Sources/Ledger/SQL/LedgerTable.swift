import Foundation

/// A ledger table, declared once: its name and the columns of its record (a record type per
/// table, as GRDB advises). Statements list its columns from here, and rows are read by them
/// (``TableRow``), so a misspelt or missing column fails to compile instead of at run time.
/// (A table may have bookkeeping columns its record does not hold; the statements that use
/// them name them.)
protocol LedgerTable {
    /// The record's columns, in the order a whole row lists them.
    associatedtype Column: RawRepresentable, CaseIterable where Column.RawValue == String
    /// The table's name.
    static var name: String { get }
    /// Every column, comma-separated: what a SELECT or RETURNING of a whole row lists
    /// (``allColumns()``, kept in a `static let`: statements on the hot path use it).
    static var columns: String { get }
}

extension LedgerTable {
    /// Every column of ``Column``, comma-separated, in declaration order.
    static func allColumns() -> String { Column.allCases.map(\.rawValue).joined(separator: ", ") }

    /// Every column of ``Column``, each prefixed with `alias` (for a join).
    static func columns(qualifiedBy alias: String) -> String {
        Column.allCases.map { "\(alias).\($0.rawValue)" }.joined(separator: ", ")
    }

    /// `INSERT INTO` the table the columns given, with their values (paired here, so they
    /// never drift apart); `clause` follows the VALUES (`ON CONFLICT …`, `RETURNING …`),
    /// with `clauseArguments` for its placeholders. The text is built once per shape
    /// (``InsertTexts``).
    static func insert(
        _ values: KeyValuePairs<Column, SQLArgument>,
        _ clause: String = "",
        _ clauseArguments: [SQLArgument] = []
    ) -> LedgerStatement {
        var arguments = values.map(\.value)
        arguments.append(contentsOf: clauseArguments)
        return LedgerStatement(
            InsertTexts.text(table: name, columns: values.lazy.map(\.key), clause: clause), arguments)
    }
}

/// A row of `Table`, read by its declared columns.
struct TableRow<Table: LedgerTable> {
    let row: any LedgerRow

    init(_ row: any LedgerRow) { self.row = row }

    func text(_ column: Table.Column) throws -> String? { try row.text(column.rawValue) }
    func requiredText(_ column: Table.Column) throws -> String { try row.requiredText(column.rawValue) }
    func integer(_ column: Table.Column) throws -> Int64? { try row.integer(column.rawValue) }
    func requiredInteger(_ column: Table.Column) throws -> Int64 { try row.requiredInteger(column.rawValue) }
    func timestamp(_ column: Table.Column) throws -> Date? { try row.timestamp(column.rawValue) }
    func requiredTimestamp(_ column: Table.Column) throws -> Date { try row.requiredTimestamp(column.rawValue) }

    /// A stored enumeration value.
    func enumeration<Value: RawRepresentable>(_ type: Value.Type, _ column: Table.Column) throws -> Value
    where Value.RawValue == String {
        try row.enumeration(type, column.rawValue)
    }
}
