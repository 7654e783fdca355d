import Foundation

/// The `spends` table (``LedgerSchema/spends``): its columns, declared once, its row, and
/// the statements of a spend.
enum SpendSQL {
    /// Every column, in the order the statements list them.
    static let columns = "player_id, idempotency_key, items, reason, actor, balances, created_at"

    /// Claims the player's key for a new spend (its balances written once known); no row
    /// when the key is taken. On PostgreSQL a claim of a key another transaction is
    /// claiming waits for that transaction's end.
    static func claim(_ request: SpendRequest, items: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO spends (\(columns)) VALUES (?, ?, ?, ?, ?, '{}', ?)
            ON CONFLICT (player_id, idempotency_key) DO NOTHING
            RETURNING player_id
            """,
            [
                .text(request.playerId), .text(request.idempotencyKey), .text(items), .text(request.reason),
                .text(request.actor), .timestamp(at),
            ])
    }

    /// The player's spend under `idempotencyKey`.
    static func spend(playerId: String, idempotencyKey: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(columns) FROM spends WHERE player_id = ? AND idempotency_key = ?",
            [.text(playerId), .text(idempotencyKey)])
    }

    /// The player's spends, newest first.
    static func spends(playerId: String, limit: Int) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(columns) FROM spends WHERE player_id = ?
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
    /// Reads a spend from a row with ``SpendSQL/columns``.
    init(row: any LedgerRow) throws {
        self.init(
            playerId: try row.requiredText("player_id"),
            idempotencyKey: try row.requiredText("idempotency_key"),
            items: try LedgerJSON.decode(Grants.self, from: try row.requiredText("items"), column: "items"),
            reason: try row.requiredText("reason"),
            actor: try row.requiredText("actor"),
            balances: try LedgerJSON.decode(
                [String: Int64].self, from: try row.requiredText("balances"), column: "balances"),
            createdAt: try row.requiredTimestamp("created_at"))
    }
}
