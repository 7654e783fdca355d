import Foundation

extension OutboxMessage {
    /// Reads an outbox message from a row with ``LedgerSQL/outboxColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            id: try row.requiredInteger("id"),
            idempotencyKey: try row.requiredText("idempotency_key"),
            playerId: try row.requiredText("player_id"),
            transactionId: try row.text("transaction_id"),
            payload: Data(try row.requiredText("payload").utf8),
            attempts: Int(try row.requiredInteger("attempts")),
            nextAttemptAt: try row.requiredTimestamp("next_attempt_at"),
            createdAt: try row.requiredTimestamp("created_at"),
            deliveredAt: try row.timestamp("delivered_at"),
            lastError: try row.text("last_error")
        )
    }
}
