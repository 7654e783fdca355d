import Foundation

extension LedgerSQL {
    /// Adds `amount` to the player's balance of `item`; returns the new balance.
    static func addToBalance(playerId: String, item: String, amount: Int64, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO balances (player_id, item, amount, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (player_id, item)
            DO UPDATE SET amount = balances.amount + excluded.amount, updated_at = excluded.updated_at
            RETURNING amount
            """,
            [.text(playerId), .text(item), .integer(amount), .timestamp(at)]
        )
    }

    /// Appends a ledger entry; returns it.
    static func insertEntry(
        playerId: String,
        item: String,
        amount: Int64,
        kind: LedgerEntryKind,
        transactionId: String?,
        reason: String?,
        actor: String?,
        balanceAfter: Int64,
        at: Date
    ) -> LedgerStatement {
        LedgerEntryTable.insert(
            [
                .playerId: .text(playerId), .item: .text(item), .amount: .integer(amount), .kind: .text(kind.rawValue),
                .transactionId: .optional(transactionId), .reason: .optional(reason), .actor: .optional(actor),
                .balanceAfter: .integer(balanceAfter), .createdAt: .timestamp(at),
            ],
            "RETURNING \(LedgerEntryTable.columns)")
    }

    static func balances(playerId: String) -> LedgerStatement {
        LedgerStatement("SELECT item, amount FROM balances WHERE player_id = ? ORDER BY item", [.text(playerId)])
    }

    static func entries(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(LedgerEntryTable.columns) FROM ledger_entries WHERE player_id = ? ORDER BY id",
            [.text(playerId)]
        )
    }
}
