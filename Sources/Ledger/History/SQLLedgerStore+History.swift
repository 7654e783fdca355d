import Foundation

extension SQLLedgerStore {
    public func appendEvent(_ event: HistoryEvent) async throws -> HistoryEvent {
        var event = event
        event.createdAt = event.createdAt.ledgerNormalized
        let inserted = try await writeAutocommit(.first(try LedgerSQL.insertEvent(event), HistoryEvent.init(row:)))
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

    public func timeline(playerId: String) async throws -> [HistoryEvent] {
        try await read(.rows(LedgerSQL.timeline(playerId: playerId), HistoryEvent.init(row:)))
    }

    public func timeline(playerId: String, page: LedgerPageRequest) async throws -> LedgerPage<HistoryEvent> {
        let rows = try await read(
            .rows(
                LedgerSQL.timeline(playerId: playerId, after: page.after, limit: page.limit + 1),
                HistoryEvent.init(row:)))
        return page.page(of: rows) { LedgerCursor(createdAt: $0.createdAt, id: String($0.id ?? 0)) }
    }

    public func events(transactionId: String) async throws -> [HistoryEvent] {
        try await read(.rows(LedgerSQL.events(transactionId: transactionId), HistoryEvent.init(row:)))
    }

    public func events(orderId: String) async throws -> [HistoryEvent] {
        try await read(.rows(LedgerSQL.events(orderId: orderId), HistoryEvent.init(row:)))
    }
}
