import Foundation

/// The ledger's outbox: the game server's webhook messages, each sent until acknowledged.
public protocol OutboxStore: Sendable {
    /// Claims up to `limit` undelivered messages due at `now`, oldest first: each is hidden
    /// from other callers until its claim ends (``OutboxMessage/nextAttemptAt``), so two
    /// workers never send one message at once; a worker that dies loses its claim then.
    func dueOutboxMessages(now: Date, limit: Int) async throws -> [OutboxMessage]

    /// Marks a message acknowledged by the receiver.
    func markOutboxDelivered(id: Int64) async throws

    /// Records a failed send: increments the attempt count and schedules the next attempt.
    func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) async throws

    /// The outbox message for a transaction (its idempotency key).
    func outboxMessage(idempotencyKey: String) async throws -> OutboxMessage?
}
