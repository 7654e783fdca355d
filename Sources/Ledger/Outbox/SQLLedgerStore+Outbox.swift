import Foundation

extension SQLLedgerStore {
    public func dueOutboxMessages(now: Date, limit: Int) async throws -> [OutboxMessage] {
        let now = now.ledgerNormalized
        let claimUntil = now.addingTimeInterval(outboxClaim).ledgerNormalized
        let claim = LedgerSQL.claimOutbox(now: now, claimUntil: claimUntil, limit: limit, dialect: dialect)
        return try await writeAutocommit(.rows(claim, OutboxMessage.init(row:))).sorted { $0.id < $1.id }
    }

    public func markOutboxDelivered(id: Int64) async throws {
        try await writeAutocommit(.execute(LedgerSQL.markOutboxDelivered(id: id, at: now)))
    }

    public func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) async throws {
        let nextAttemptAt = nextAttemptAt.ledgerNormalized
        try await writeAutocommit(
            .execute(LedgerSQL.markOutboxFailed(id: id, nextAttemptAt: nextAttemptAt, error: error)))
    }

    public func outboxMessage(idempotencyKey: String) async throws -> OutboxMessage? {
        try await read(.first(LedgerSQL.outbox(idempotencyKey: idempotencyKey), OutboxMessage.init(row:)))
    }
}
