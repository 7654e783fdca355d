import Synchronization

/// The SQL text of every INSERT shape ``LedgerTable/insert(_:_:_:)`` is asked for, built the
/// first time each shape is used.
///
/// A delivery makes several inserts, and building each text again (joining the column
/// names and the placeholders, then interpolating them) was measurable string work and
/// allocation on the hot path. A shape is the table, its columns in order and the clause
/// after the VALUES; it is found by a hash of those and confirmed against them, so two
/// shapes with the same hash never share a text (the later one is built and kept instead).
enum InsertTexts {
    /// One built text and the shape it is for.
    private struct Entry: Sendable {
        let table: String
        let columns: [String]
        let clause: String
        let text: String
    }

    /// The texts built so far, by the hash of their shape.
    private static let entries = Mutex<[Int: Entry]>([:])

    /// The text of `INSERT INTO table (columns…) VALUES (?, …) clause`.
    static func text<Column: RawRepresentable>(
        table: String, columns: some Collection<Column>, clause: String
    ) -> String where Column.RawValue == String {
        var hasher = Hasher()
        hasher.combine(table)
        for column in columns { hasher.combine(column.rawValue) }
        hasher.combine(clause)
        let key = hasher.finalize()
        if let entry = entries.withLock({ $0[key] }), entry.table == table, entry.clause == clause,
            entry.columns.elementsEqual(columns.lazy.map(\.rawValue))
        {
            return entry.text
        }
        let names = columns.map(\.rawValue)
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let text = "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(marks)) \(clause)"
        entries.withLock { $0[key] = Entry(table: table, columns: names, clause: clause, text: text) }
        return text
    }
}
