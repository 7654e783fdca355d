import Foundation

extension LedgerSQL {
    static let entryColumns =
        "id, player_id, item, amount, kind, transaction_id, reason, actor, balance_after, created_at"

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
        LedgerStatement(
            """
            INSERT INTO ledger_entries (player_id, item, amount, kind, transaction_id, reason, actor, \
            balance_after, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING \(entryColumns)
            """,
            [
                .text(playerId), .text(item), .integer(amount), .text(kind.rawValue), .optional(transactionId),
                .optional(reason), .optional(actor), .integer(balanceAfter), .timestamp(at),
            ]
        )
    }

    static func balances(playerId: String) -> LedgerStatement {
        LedgerStatement("SELECT item, amount FROM balances WHERE player_id = ? ORDER BY item", [.text(playerId)])
    }

    static func entries(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(entryColumns) FROM ledger_entries WHERE player_id = ? ORDER BY id",
            [.text(playerId)]
        )
    }
}
