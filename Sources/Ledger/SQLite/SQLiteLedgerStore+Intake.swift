import Foundation
import GRDB

extension SQLiteLedgerStore {
    public func appendEvent(_ event: HistoryEvent) async throws -> HistoryEvent {
        var event = event
        event.createdAt = event.createdAt.ledgerNormalized
        return try await writer.write { [event] db in
            guard let row = try db.row(LedgerSQL.insertEvent(event)) else {
                throw LedgerError.corruptRow("event insert returned nothing")
            }
            return try HistoryEvent(row: row)
        }
    }

    public func appendClientEvents(playerId: String, events: [ClientEvent]) async throws {
        guard !events.isEmpty else { return }
        let now = self.now
        try await writer.write { db in
            for event in events {
                try db.run(LedgerSQL.insertEvent(LedgerRules.clientEvent(event, playerId: playerId, receivedAt: now)))
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
        return try await writer.write { db in
            let recorded = try db.row(
                LedgerSQL.insertNotification(
                    uuid: notificationUUID,
                    type: type,
                    subtype: subtype,
                    transactionId: transactionId,
                    receivedAt: receivedAt
                )
            )
            guard recorded != nil else { return false }
            try db.run(
                LedgerSQL.insertNotificationEvent(
                    uuid: notificationUUID,
                    type: type,
                    subtype: subtype,
                    transactionId: transactionId,
                    receivedAt: receivedAt
                )
            )
            return true
        }
    }

    public func markNotificationProcessed(_ notificationUUID: String) async throws {
        let now = self.now
        try await writer.write { db in
            try db.run(LedgerSQL.markNotificationProcessed(uuid: notificationUUID, at: now))
        }
    }

    public func dueOutboxMessages(now: Date, limit: Int) async throws -> [OutboxMessage] {
        let now = now.ledgerNormalized
        let claimUntil = now.addingTimeInterval(outboxClaim).ledgerNormalized
        return try await writer.write { db in
            try db.rows(LedgerSQL.claimOutbox(now: now, claimUntil: claimUntil, limit: limit, dialect: .sqlite))
                .map(OutboxMessage.init(row:))
                .sorted { $0.id < $1.id }
        }
    }

    public func markOutboxDelivered(id: Int64) async throws {
        let now = self.now
        try await writer.write { db in try db.run(LedgerSQL.markOutboxDelivered(id: id, at: now)) }
    }

    public func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) async throws {
        let nextAttemptAt = nextAttemptAt.ledgerNormalized
        try await writer.write { db in
            try db.run(LedgerSQL.markOutboxFailed(id: id, nextAttemptAt: nextAttemptAt, error: error))
        }
    }

    public func setCheckpoint(_ name: String, value: String) async throws {
        let now = self.now
        try await writer.write { db in try db.run(LedgerSQL.setCheckpoint(name: name, value: value, at: now)) }
    }
}
