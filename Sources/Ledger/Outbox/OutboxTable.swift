/// The `outbox` table: webhook messages to deliver at least once (primary key `id`, UNIQUE
/// `idempotency_key`).
enum OutboxTable: LedgerTable {
    static let name = "outbox"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case id
        case idempotencyKey = "idempotency_key"
        case playerId = "player_id"
        case transactionId = "transaction_id"
        case payload
        case attempts
        case nextAttemptAt = "next_attempt_at"
        case createdAt = "created_at"
        case deliveredAt = "delivered_at"
        case lastError = "last_error"
    }
}
