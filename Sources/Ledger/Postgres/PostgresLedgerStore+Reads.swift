import Foundation
import PostgresNIO

extension PostgresLedgerStore {
    /// Runs one read statement and decodes each row.
    private func fetch<Value: Sendable>(
        _ statement: LedgerStatement,
        _ decode: @escaping @Sendable (PostgresRandomAccessRow) throws -> Value
    ) async throws -> [Value] {
        try await onConnection { connection in
            try await connection.rows(statement, logger: self.logger).map(decode)
        }
    }

    public func order(id: String) async throws -> Order? {
        try await fetch(LedgerSQL.order(id: id), Order.init(row:)).first
    }

    public func order(appAccountToken: String) async throws -> Order? {
        try await fetch(LedgerSQL.order(appAccountToken: appAccountToken), Order.init(row:)).first
    }

    public func orders(playerId: String) async throws -> [Order] {
        try await fetch(LedgerSQL.orders(playerId: playerId), Order.init(row:))
    }

    public func purchase(transactionId: String) async throws -> Purchase? {
        try await fetch(LedgerSQL.purchase(transactionId: transactionId), Purchase.init(row:)).first
    }

    public func purchases(playerId: String) async throws -> [Purchase] {
        try await fetch(LedgerSQL.purchases(playerId: playerId), Purchase.init(row:))
    }

    public func wallet(playerId: String) async throws -> [String: Int64] {
        let balances = try await fetch(LedgerSQL.balances(playerId: playerId)) {
            (try $0.requiredText("item"), try $0.requiredInteger("amount"))
        }
        return Dictionary(balances, uniquingKeysWith: { first, _ in first })
    }

    public func ledgerEntries(playerId: String) async throws -> [LedgerEntry] {
        try await fetch(LedgerSQL.entries(playerId: playerId), LedgerEntry.init(row:))
    }

    public func timeline(playerId: String) async throws -> [HistoryEvent] {
        try await fetch(LedgerSQL.timeline(playerId: playerId), HistoryEvent.init(row:))
    }

    public func events(transactionId: String) async throws -> [HistoryEvent] {
        try await fetch(LedgerSQL.events(transactionId: transactionId), HistoryEvent.init(row:))
    }

    public func events(orderId: String) async throws -> [HistoryEvent] {
        try await fetch(LedgerSQL.events(orderId: orderId), HistoryEvent.init(row:))
    }

    public func notification(uuid: String) async throws -> NotificationRecord? {
        try await fetch(LedgerSQL.notification(uuid: uuid), NotificationRecord.init(row:)).first
    }

    public func outboxMessage(idempotencyKey: String) async throws -> OutboxMessage? {
        try await fetch(LedgerSQL.outbox(idempotencyKey: idempotencyKey), OutboxMessage.init(row:)).first
    }

    public func checkpoint(_ name: String) async throws -> String? {
        try await fetch(LedgerSQL.checkpoint(name: name)) { try $0.requiredText("value") }.first
    }
}
