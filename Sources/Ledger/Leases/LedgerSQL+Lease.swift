import Foundation

/// Leases live in the `checkpoints` table, one row per lease: `value` is the holder and
/// `updated_at` the moment the lease expires.
extension LedgerSQL {
    /// Inserts the lease, or takes it over when it has expired, or renews it when `holder`
    /// holds it; returns the row only when `holder` holds it afterwards. PostgreSQL locks
    /// the existing row either way until the transaction ends.
    static func takeLease(name: String, holder: String, now: Date, expiresAt: Date) -> LedgerStatement {
        CheckpointTable.insert(
            [.name: .text(name), .value: .text(holder), .updatedAt: .timestamp(expiresAt)],
            """
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            WHERE checkpoints.updated_at <= ? OR checkpoints.value = excluded.value
            RETURNING \(CheckpointTable.columns)
            """,
            [.timestamp(now)])
    }

    /// The lease row, locked until the transaction ends on PostgreSQL (SQLite's write
    /// transactions exclude each other anyway).
    static func lease(name: String, dialect: Dialect) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(CheckpointTable.columns) FROM checkpoints WHERE name = ?\(dialect == .postgres ? " FOR UPDATE" : "")",
            [.text(name)])
    }

    /// Ends `holder`'s lease (nothing when another holder has it).
    static func releaseLease(name: String, holder: String) -> LedgerStatement {
        LedgerStatement("DELETE FROM checkpoints WHERE name = ? AND value = ?", [.text(name), .text(holder)])
    }

    /// A checkpoint's value, locked until the transaction ends on PostgreSQL.
    static func checkpointForUpdate(name: String, dialect: Dialect) -> LedgerStatement {
        LedgerStatement(
            "SELECT value FROM checkpoints WHERE name = ?\(dialect == .postgres ? " FOR UPDATE" : "")",
            [.text(name)])
    }
}

extension Lease {
    /// Reads a lease from a row with ``CheckpointTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<CheckpointTable>(row)
        self.init(
            name: try row.requiredText(.name), holder: try row.requiredText(.value),
            expiresAt: try row.requiredTimestamp(.updatedAt))
    }
}
