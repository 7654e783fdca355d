import Foundation
import GRDB

extension SQLiteLedgerStore {
    public func order(id: String) async throws -> Order? {
        try await writer.read { db in try db.row(LedgerSQL.order(id: id)).map(Order.init(row:)) }
    }

    public func order(appAccountToken: String) async throws -> Order? {
        try await writer.read { db in
            try db.row(LedgerSQL.order(appAccountToken: appAccountToken)).map(Order.init(row:))
        }
    }

    public func orders(playerId: String) async throws -> [Order] {
        try await writer.read { db in try db.rows(LedgerSQL.orders(playerId: playerId)).map(Order.init(row:)) }
    }

    public func purchase(transactionId: String) async throws -> Purchase? {
        try await writer.read { db in
            try db.row(LedgerSQL.purchase(transactionId: transactionId)).map(Purchase.init(row:))
        }
    }

    public func purchases(playerId: String) async throws -> [Purchase] {
        try await writer.read { db in
            try db.rows(LedgerSQL.purchases(playerId: playerId)).map(Purchase.init(row:))
        }
    }

    public func wallet(playerId: String) async throws -> [String: Int64] {
        try await writer.read { db in
            var wallet: [String: Int64] = [:]
            for row in try db.rows(LedgerSQL.balances(playerId: playerId)) {
                wallet[try row.requiredText("item")] = try row.requiredInteger("amount")
            }
            return wallet
        }
    }

    public func ledgerEntries(playerId: String) async throws -> [LedgerEntry] {
        try await writer.read { db in
            try db.rows(LedgerSQL.entries(playerId: playerId)).map(LedgerEntry.init(row:))
        }
    }

    public func timeline(playerId: String) async throws -> [HistoryEvent] {
        try await writer.read { db in
            try db.rows(LedgerSQL.timeline(playerId: playerId)).map(HistoryEvent.init(row:))
        }
    }

    public func events(transactionId: String) async throws -> [HistoryEvent] {
        try await writer.read { db in
            try db.rows(LedgerSQL.events(transactionId: transactionId)).map(HistoryEvent.init(row:))
        }
    }

    public func events(orderId: String) async throws -> [HistoryEvent] {
        try await writer.read { db in
            try db.rows(LedgerSQL.events(orderId: orderId)).map(HistoryEvent.init(row:))
        }
    }

    public func notification(uuid: String) async throws -> NotificationRecord? {
        try await writer.read { db in
            try db.row(LedgerSQL.notification(uuid: uuid)).map(NotificationRecord.init(row:))
        }
    }

    public func outboxMessage(idempotencyKey: String) async throws -> OutboxMessage? {
        try await writer.read { db in
            try db.row(LedgerSQL.outbox(idempotencyKey: idempotencyKey)).map(OutboxMessage.init(row:))
        }
    }

    public func checkpoint(_ name: String) async throws -> String? {
        try await writer.read { db in try db.row(LedgerSQL.checkpoint(name: name))?.text("value") }
    }
}
