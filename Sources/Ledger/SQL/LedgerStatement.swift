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
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var index = 0
        for character in sql {
            if character == "?" {
                index += 1
                result += "$\(index)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
