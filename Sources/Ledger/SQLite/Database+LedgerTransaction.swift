import GRDB

extension Database {
    /// How a ledger transaction begins.
    enum LedgerTransactionKind: String {
        /// Takes the write lock at once (every write: concurrent writers wait for it, never
        /// fail on upgrading a read lock).
        case immediate = "BEGIN IMMEDIATE TRANSACTION"
        /// Reads a consistent snapshot (WAL), taking no lock until needed.
        case deferred = "BEGIN DEFERRED TRANSACTION"
    }

    /// Runs `body` in one transaction whose `BEGIN`, `COMMIT` and `ROLLBACK` are statements
    /// compiled once per connection and reused (GRDB's `inTransaction` compiles them anew
    /// each time): committed when `body` returns, rolled back when it throws.
    func inLedgerTransaction<Value>(_ kind: LedgerTransactionKind, _ body: () throws -> Value) throws -> Value {
        try cachedStatement(sql: kind.rawValue).execute()
        let value: Value
        do {
            value = try body()
            try cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            // A failed statement may have ended the transaction already (SQLite rolls back
            // on some errors by itself).
            if isInsideTransaction {
                try? cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
            }
            throw error
        }
        return value
    }
}
