import Foundation

extension SQLLedgerStore {
    public func appendEvent(_ event: HistoryEvent) async throws -> HistoryEvent {
        var event = event
        event.createdAt = event.createdAt.ledgerNormalized
        let inserted = try await writeStatement(.first(try LedgerSQL.insertEvent(event), HistoryEvent.init(row:)))
        guard let inserted else { throw LedgerError.corruptRow("event insert returned nothing") }
        return inserted
    }

    public func appendClientEvents(playerId: String, events: [ClientEvent]) async throws {
        guard !events.isEmpty else { return }
        try await write(LedgerWrites.appendClientEvents(events, playerId: playerId, receivedAt: now))
    }

    public func appendClientEvents(playerId: String, events: [ClientEvent], keep: Int) async throws {
        guard !events.isEmpty else { return }
        try await write(
            LedgerWrites.appendClientEvents(events, playerId: playerId, receivedAt: now)
                .then { .execute(LedgerSQL.pruneClientEvents(playerId: playerId, keep: max(keep, 0))) })
    }

    public func recordNotification(
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        signedDate: Date?,
        revokedShare: Int?,
        receivedAt: Date
    ) async throws -> Bool {
        let notification = NotificationRecord(
            notificationUUID: notificationUUID,
            type: type,
            subtype: subtype,
            transactionId: transactionId,
            receivedAt: receivedAt.ledgerNormalized,
            processedAt: nil
        )
        return try await write(
            LedgerWrites.recordNotification(notification, signedDate: signedDate, revokedShare: revokedShare))
    }

    public func markNotificationProcessed(_ notificationUUID: String) async throws {
        try await writeStatement(.execute(LedgerSQL.markNotificationProcessed(uuid: notificationUUID, at: now)))
    }

    public func dueOutboxMessages(now: Date, limit: Int) async throws -> [OutboxMessage] {
        let now = now.ledgerNormalized
        let claimUntil = now.addingTimeInterval(outboxClaim).ledgerNormalized
        let claim = LedgerSQL.claimOutbox(now: now, claimUntil: claimUntil, limit: limit, dialect: dialect)
        return try await writeStatement(.rows(claim, OutboxMessage.init(row:))).sorted { $0.id < $1.id }
    }

    public func markOutboxDelivered(id: Int64) async throws {
        try await writeStatement(.execute(LedgerSQL.markOutboxDelivered(id: id, at: now)))
    }

    public func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) async throws {
        let nextAttemptAt = nextAttemptAt.ledgerNormalized
        try await writeStatement(
            .execute(LedgerSQL.markOutboxFailed(id: id, nextAttemptAt: nextAttemptAt, error: error)))
    }

    public func setCheckpoint(_ name: String, value: String) async throws {
        try await writeStatement(.execute(LedgerSQL.setCheckpoint(name: name, value: value, at: now)))
    }
}
