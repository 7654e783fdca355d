import Foundation

extension SQLLedgerStore {
    public func appliedMigrations() async throws -> [Int64] {
        try await read(.rows(LedgerSQL.appliedMigrations, { try $0.requiredInteger("version") }))
    }

    public func order(id: String) async throws -> Order? {
        try await read(.first(LedgerSQL.order(id: id), Order.init(row:)))
    }

    public func order(appAccountToken: String) async throws -> Order? {
        try await read(.first(LedgerSQL.order(appAccountToken: appAccountToken), Order.init(row:)))
    }

    public func orders(playerId: String) async throws -> [Order] {
        try await read(.rows(LedgerSQL.orders(playerId: playerId), Order.init(row:)))
    }

    public func orders(playerId: String, page: LedgerPageRequest) async throws -> LedgerPage<Order> {
        let rows = try await read(
            .rows(
                LedgerSQL.orders(playerId: playerId, after: page.after, limit: page.limit + 1), Order.init(row:)))
        return page.page(of: rows) { LedgerCursor(createdAt: $0.createdAt, id: $0.orderId) }
    }

    public func purchase(transactionId: String) async throws -> Purchase? {
        try await read(.first(LedgerSQL.purchase(transactionId: transactionId), Purchase.init(row:)))
    }

    public func purchases(playerId: String) async throws -> [Purchase] {
        try await read(.rows(LedgerSQL.purchases(playerId: playerId), Purchase.init(row:)))
    }

    public func wallet(playerId: String) async throws -> [String: Int64] {
        let balances = try await read(
            .rows(LedgerSQL.balances(playerId: playerId)) {
                (try $0.requiredText("item"), try $0.requiredInteger("amount"))
            }
        )
        return Dictionary(balances, uniquingKeysWith: { first, _ in first })
    }

    public func ledgerEntries(playerId: String) async throws -> [LedgerEntry] {
        try await read(.rows(LedgerSQL.entries(playerId: playerId), LedgerEntry.init(row:)))
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

    public func notification(uuid: String) async throws -> NotificationRecord? {
        try await read(.first(LedgerSQL.notification(uuid: uuid), NotificationRecord.init(row:)))
    }

    public func outboxMessage(idempotencyKey: String) async throws -> OutboxMessage? {
        try await read(.first(LedgerSQL.outbox(idempotencyKey: idempotencyKey), OutboxMessage.init(row:)))
    }

    public func checkpoint(_ name: String) async throws -> String? {
        try await read(.first(LedgerSQL.checkpoint(name: name), { try $0.requiredText("value") }))
    }
}
