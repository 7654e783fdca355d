import Foundation

extension LedgerSQL {
    /// Enqueues a message unless its idempotency key is taken.
    static func insertOutbox(
        idempotencyKey: String,
        playerId: String,
        transactionId: String?,
        payload: String,
        at: Date
    ) -> LedgerStatement {
        OutboxTable.insert(
            [
                .idempotencyKey: .text(idempotencyKey), .playerId: .text(playerId),
                .transactionId: .optional(transactionId), .payload: .text(payload), .attempts: .integer(0),
                .nextAttemptAt: .timestamp(at), .createdAt: .timestamp(at),
            ],
            "ON CONFLICT (idempotency_key) DO NOTHING")
    }

    /// Claims due messages until `claimUntil`. PostgreSQL skips rows another worker is
    /// claiming at this moment (`FOR UPDATE SKIP LOCKED`); SQLite has a single writer.
    static func claimOutbox(now: Date, claimUntil: Date, limit: Int, dialect: Dialect) -> LedgerStatement {
        let locking = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return LedgerStatement(
            """
            UPDATE outbox SET next_attempt_at = ?
            WHERE id IN (
                SELECT id FROM outbox
                WHERE delivered_at IS NULL AND next_attempt_at <= ?
                ORDER BY next_attempt_at, id
                LIMIT ?\(locking)
            )
            RETURNING \(OutboxTable.columns)
            """,
            [.timestamp(claimUntil), .timestamp(now), .integer(Int64(limit))]
        )
    }

    static func markOutboxDelivered(id: Int64, at: Date) -> LedgerStatement {
        LedgerStatement(
            "UPDATE outbox SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL",
            [.timestamp(at), .integer(id)]
        )
    }

    static func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
            WHERE id = ? AND delivered_at IS NULL
            """,
            [.timestamp(nextAttemptAt), .text(error), .integer(id)]
        )
    }

    static func outbox(idempotencyKey: String) -> LedgerStatement {
        LedgerStatement("SELECT \(OutboxTable.columns) FROM outbox WHERE idempotency_key = ?", [.text(idempotencyKey)])
    }
}
