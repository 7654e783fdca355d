import Foundation

extension OutboxMessage {
    /// Reads an outbox message from a row with ``OutboxTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<OutboxTable>(row)
        self.init(
            id: try row.requiredInteger(.id),
            idempotencyKey: try row.requiredText(.idempotencyKey),
            playerId: try row.requiredText(.playerId),
            transactionId: try row.text(.transactionId),
            payload: Data(try row.requiredText(.payload).utf8),
            attempts: Int(try row.requiredInteger(.attempts)),
            nextAttemptAt: try row.requiredTimestamp(.nextAttemptAt),
            createdAt: try row.requiredTimestamp(.createdAt),
            deliveredAt: try row.timestamp(.deliveredAt),
            lastError: try row.text(.lastError)
        )
    }
}
