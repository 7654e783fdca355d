import Foundation
import PostgresNIO

extension PostgresLedgerStore {
    public func appendEvent(_ event: HistoryEvent) async throws -> HistoryEvent {
        var event = event
        event.createdAt = event.createdAt.ledgerNormalized
        return try await onConnection { [event] connection in
            guard let row = try await connection.row(LedgerSQL.insertEvent(event), logger: self.logger) else {
                throw LedgerError.corruptRow("event insert returned nothing")
            }
            return try HistoryEvent(row: row)
        }
    }

    public func appendClientEvents(playerId: String, events: [ClientEvent]) async throws {
        guard !events.isEmpty else { return }
        let now = self.now
        try await transaction { connection in
            for event in events {
                try await connection.run(
                    LedgerSQL.insertEvent(LedgerRules.clientEvent(event, playerId: playerId, receivedAt: now)),
                    logger: self.logger
                )
            }
        }
    }

    public func recordNotification(
        notificationUUID: String,
        type: String,
        subtype: String?,
        transactionId: String?,
        receivedAt: Date
    ) async throws -> Bool {
        let receivedAt = receivedAt.ledgerNormalized
        return try await transaction { connection in
            // The primary key on notification_uuid recognizes Apple's retries.
            let recorded = try await connection.row(
                LedgerSQL.insertNotification(
                    uuid: notificationUUID,
                    type: type,
                    subtype: subtype,
                    transactionId: transactionId,
                    receivedAt: receivedAt
                ),
                logger: self.logger
            )
            guard recorded != nil else { return false }
            try await connection.run(
                LedgerSQL.insertNotificationEvent(
                    uuid: notificationUUID,
                    type: type,
                    subtype: subtype,
                    transactionId: transactionId,
                    receivedAt: receivedAt
                ),
                logger: self.logger
            )
            return true
        }
    }

    public func markNotificationProcessed(_ notificationUUID: String) async throws {
        let now = self.now
        try await onConnection { connection in
            try await connection.run(
                LedgerSQL.markNotificationProcessed(uuid: notificationUUID, at: now),
                logger: self.logger
            )
        }
    }

    public func dueOutboxMessages(now: Date, limit: Int) async throws -> [OutboxMessage] {
        let now = now.ledgerNormalized
        let claimUntil = now.addingTimeInterval(outboxClaim).ledgerNormalized
        return try await onConnection { connection in
            try await connection.rows(
                LedgerSQL.claimOutbox(now: now, claimUntil: claimUntil, limit: limit, dialect: .postgres),
                logger: self.logger
            )
            .map(OutboxMessage.init(row:))
            .sorted { $0.id < $1.id }
        }
    }

    public func markOutboxDelivered(id: Int64) async throws {
        let now = self.now
        try await onConnection { connection in
            try await connection.run(LedgerSQL.markOutboxDelivered(id: id, at: now), logger: self.logger)
        }
    }

    public func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) async throws {
        let nextAttemptAt = nextAttemptAt.ledgerNormalized
        try await onConnection { connection in
            try await connection.run(
                LedgerSQL.markOutboxFailed(id: id, nextAttemptAt: nextAttemptAt, error: error),
                logger: self.logger
            )
        }
    }

    public func setCheckpoint(_ name: String, value: String) async throws {
        let now = self.now
        try await onConnection { connection in
            try await connection.run(LedgerSQL.setCheckpoint(name: name, value: value, at: now), logger: self.logger)
        }
    }
}
