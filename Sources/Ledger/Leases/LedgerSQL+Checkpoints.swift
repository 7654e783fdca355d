import Foundation

extension LedgerSQL {
    static func checkpoint(name: String) -> LedgerStatement {
        LedgerStatement("SELECT value FROM checkpoints WHERE name = ?", [.text(name)])
    }

    static func setCheckpoint(name: String, value: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO checkpoints (name, value, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """,
            [.text(name), .text(value), .timestamp(at)]
        )
    }
}
