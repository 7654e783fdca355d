/// One SQL statement with its parameters. The SQL uses `?` placeholders and syntax both
/// SQLite and PostgreSQL accept; ``postgresSQL`` numbers the placeholders for PostgreSQL.
struct LedgerStatement: Sendable {
    /// The SQL text, with `?` placeholders.
    var sql: String
    /// The parameters, in placeholder order.
    var arguments: [SQLArgument]

    /// Creates a statement.
    init(_ sql: String, _ arguments: [SQLArgument] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The SQL with PostgreSQL's `$1, $2, …` placeholders. (The ledger's SQL never has a
    /// `?` inside a literal.)
    var postgresSQL: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sql.utf8.count + 2 * arguments.count)
        var index = 0
        for byte in sql.utf8 {
            if byte == UInt8(ascii: "?") {
                index += 1
                bytes.append(UInt8(ascii: "$"))
                bytes.append(contentsOf: String(index).utf8)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
