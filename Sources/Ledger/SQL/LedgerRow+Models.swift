import AppStoreModel
import Foundation

extension Order {
    /// Reads an order from a row with ``LedgerSQL/orderColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            orderId: try row.requiredText("order_id"),
            playerId: try row.requiredText("player_id"),
            productId: try row.requiredText("product_id"),
            quantity: Int(try row.requiredInteger("quantity")),
            appAccountToken: try row.requiredText("app_account_token"),
            status: try row.enumeration(OrderStatus.self, "status"),
            createdAt: try row.requiredTimestamp("created_at"),
            expiresAt: try row.requiredTimestamp("expires_at"),
            fulfilledBy: try row.text("fulfilled_by")
        )
    }
}

extension Purchase {
    /// Reads a purchase from a row with ``LedgerSQL/purchaseColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            transactionId: try row.requiredText("transaction_id"),
            originalTransactionId: try row.requiredText("original_transaction_id"),
            playerId: try row.requiredText("player_id"),
            orderId: try row.text("order_id"),
            productId: try row.requiredText("product_id"),
            quantity: Int(try row.requiredInteger("quantity")),
            environment: AppStoreEnvironment(rawValue: try row.requiredText("environment")),
            source: try row.enumeration(DeliverySource.self, "source"),
            flags: Set(try LedgerJSON.decode([String].self, from: try row.requiredText("flags"), column: "flags")),
            grants: try LedgerJSON.decode(Grants.self, from: try row.requiredText("grants"), column: "grants"),
            status: try row.enumeration(PurchaseStatus.self, "status"),
            purchaseDate: try row.requiredTimestamp("purchase_date"),
            deliveredAt: try row.requiredTimestamp("delivered_at"),
            refundedShare: Int(try row.requiredInteger("refunded_share")),
            refundedAt: try row.timestamp("refunded_at"),
            refundReason: try row.text("refund_reason")
        )
    }
}

extension LedgerEntry {
    /// Reads a ledger entry from a row with ``LedgerSQL/entryColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            id: try row.requiredInteger("id"),
            playerId: try row.requiredText("player_id"),
            item: try row.requiredText("item"),
            amount: try row.requiredInteger("amount"),
            kind: try row.enumeration(LedgerEntryKind.self, "kind"),
            transactionId: try row.text("transaction_id"),
            reason: try row.text("reason"),
            actor: try row.text("actor"),
            balanceAfter: try row.requiredInteger("balance_after"),
            createdAt: try row.requiredTimestamp("created_at")
        )
    }
}

extension HistoryEvent {
    /// Reads an event from a row with ``LedgerSQL/eventColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            id: try row.requiredInteger("id"),
            type: HistoryEventType(rawValue: try row.requiredText("type")),
            playerId: try row.text("player_id"),
            orderId: try row.text("order_id"),
            transactionId: try row.text("transaction_id"),
            detail: try LedgerJSON.decode(
                [String: String].self, from: try row.requiredText("detail"), column: "detail"),
            createdAt: try row.requiredTimestamp("created_at")
        )
    }
}

extension NotificationRecord {
    /// Reads a notification from a row with ``LedgerSQL/notificationColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            notificationUUID: try row.requiredText("notification_uuid"),
            type: try row.requiredText("notification_type"),
            subtype: try row.text("subtype"),
            transactionId: try row.text("transaction_id"),
            receivedAt: try row.requiredTimestamp("received_at"),
            processedAt: try row.timestamp("processed_at")
        )
    }
}

extension OutboxMessage {
    /// Reads an outbox message from a row with ``LedgerSQL/outboxColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            id: try row.requiredInteger("id"),
            idempotencyKey: try row.requiredText("idempotency_key"),
            playerId: try row.requiredText("player_id"),
            transactionId: try row.text("transaction_id"),
            payload: Data(try row.requiredText("payload").utf8),
            attempts: Int(try row.requiredInteger("attempts")),
            nextAttemptAt: try row.requiredTimestamp("next_attempt_at"),
            createdAt: try row.requiredTimestamp("created_at"),
            deliveredAt: try row.timestamp("delivered_at"),
            lastError: try row.text("last_error")
        )
    }
}
