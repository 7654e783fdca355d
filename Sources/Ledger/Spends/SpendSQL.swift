import Foundation

/// The statements of a spend, on ``SpendTable``, and its row.
enum SpendSQL {
    /// Claims the player's key for a new spend (its balances written once known); no row
    /// when the key is taken. On PostgreSQL a claim of a key another transaction is
    /// claiming waits for that transaction's end.
    static func claim(_ request: SpendRequest, items: String, at: Date) -> LedgerStatement {
        SpendTable.insert(
            [
                .playerId: .text(request.playerId), .idempotencyKey: .text(request.idempotencyKey),
                .items: .text(items), .reason: .text(request.reason), .actor: .text(request.actor),
                .balances: .text("{}"), .createdAt: .timestamp(at),
            ],
            "ON CONFLICT (player_id, idempotency_key) DO NOTHING RETURNING player_id")
    }

    /// The player's spend under `idempotencyKey`.
    static func spend(playerId: String, idempotencyKey: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(SpendTable.columns) FROM spends WHERE player_id = ? AND idempotency_key = ?",
            [.text(playerId), .text(idempotencyKey)])
    }

    /// The player's spends, newest first.
    static func spends(playerId: String, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(SpendTable.columns) FROM spends WHERE player_id = ?
            ORDER BY created_at DESC, idempotency_key DESC LIMIT ?
            """,
            [.text(playerId), .integer(Int64(limit))])
    }

    /// Takes `amount` from the balance only if it holds at least that much; answers the
    /// balance after, or no row. One statement: the check and the debit cannot be split by
    /// another spend (PostgreSQL re-checks the condition on the row it waited for).
    static func debit(playerId: String, item: String, amount: Int64, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE balances SET amount = amount - ?, updated_at = ?
            WHERE player_id = ? AND item = ? AND amount >= ?
            RETURNING amount
            """,
            [.integer(amount), .timestamp(at), .text(playerId), .text(item), .integer(amount)])
    }

    /// The balance of one item (no row: never held).
    static func balance(playerId: String, item: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT amount FROM balances WHERE player_id = ? AND item = ?", [.text(playerId), .text(item)])
    }

    /// Records the balances a claimed spend left.
    static func recordBalances(playerId: String, idempotencyKey: String, balances: String) -> LedgerStatement {
        LedgerStatement(
            "UPDATE spends SET balances = ? WHERE player_id = ? AND idempotency_key = ?",
            [.text(balances), .text(playerId), .text(idempotencyKey)])
    }
}

extension Spend {
    /// Reads a spend from a row with ``SpendTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<SpendTable>(row)
        self.init(
            playerId: try row.requiredText(.playerId),
            idempotencyKey: try row.requiredText(.idempotencyKey),
            items: try LedgerJSON.decode(Grants.self, from: try row.requiredText(.items), column: "items"),
            reason: try row.requiredText(.reason),
            actor: try row.requiredText(.actor),
            balances: try LedgerJSON.decode(
                [String: Int64].self, from: try row.requiredText(.balances), column: "balances"),
            createdAt: try row.requiredTimestamp(.createdAt))
    }
}
