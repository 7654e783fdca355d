import Foundation

/// The statements both stores run, written once in the dialect SQLite and PostgreSQL share
/// (`INSERT … ON CONFLICT`, `RETURNING`). ``LedgerWrites`` and ``SQLLedgerStore`` put them
/// together into operations.
enum LedgerSQL {
    /// Which database a statement is for, where the SQL differs.
    enum Dialect: Sendable {
        /// SQLite (one writer at a time).
        case sqlite
        /// PostgreSQL (many concurrent writers).
        case postgres
    }

    static let orderColumns =
        "order_id, player_id, product_id, quantity, app_account_token, status, created_at, expires_at, fulfilled_by"
    static let purchaseColumns = """
        transaction_id, original_transaction_id, player_id, order_id, product_id, quantity, environment, \
        source, flags, grants, status, purchase_date, delivered_at, refunded_at, refund_reason, refunded_share
        """
    static let entryColumns =
        "id, player_id, item, amount, kind, transaction_id, reason, actor, balance_after, created_at"
    static let eventColumns = "id, type, player_id, order_id, transaction_id, detail, created_at"
    static let outboxColumns = """
        id, idempotency_key, player_id, transaction_id, payload, attempts, next_attempt_at, created_at, \
        delivered_at, last_error
        """
    static let notificationColumns =
        "notification_uuid, notification_type, subtype, transaction_id, received_at, processed_at"

    // MARK: Migrations

    static let appliedMigrations = LedgerStatement("SELECT version FROM schema_migrations ORDER BY version")

    // MARK: Orders

    /// Inserts an order unless its id or token is taken; returns a row only when inserted.
    static func insertOrder(_ order: Order) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO orders (order_id, player_id, product_id, quantity, app_account_token, status, \
            created_at, expires_at, fulfilled_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            RETURNING \(orderColumns)
            """,
            [
                .text(order.orderId), .text(order.playerId), .text(order.productId),
                .integer(Int64(order.quantity)), .text(order.appAccountToken), .text(order.status.rawValue),
                .timestamp(order.createdAt), .timestamp(order.expiresAt), .optional(order.fulfilledBy),
            ]
        )
    }

    static func order(id: String) -> LedgerStatement {
        LedgerStatement("SELECT \(orderColumns) FROM orders WHERE order_id = ?", [.text(id)])
    }

    static func order(appAccountToken: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(orderColumns) FROM orders WHERE app_account_token = ?",
            [.text(appAccountToken.lowercased())]
        )
    }

    static func orders(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(orderColumns) FROM orders WHERE player_id = ? ORDER BY created_at, order_id",
            [.text(playerId)]
        )
    }

    /// A page of ``orders(playerId:)``: at most `limit` orders after `after`.
    static func orders(playerId: String, after: LedgerCursor?, limit: Int) -> LedgerStatement {
        let start = after ?? LedgerCursor(createdAt: Date(ledgerMilliseconds: 0), id: "")
        return LedgerStatement(
            """
            SELECT \(orderColumns) FROM orders
            WHERE player_id = ? AND (created_at > ? OR (created_at = ? AND order_id > ?))
            ORDER BY created_at, order_id
            LIMIT ?
            """,
            [
                .text(playerId), .timestamp(start.createdAt), .timestamp(start.createdAt), .text(start.id),
                .integer(Int64(limit)),
            ]
        )
    }

    /// Marks the player's order fulfilled if no transaction has yet; a row only when it did.
    static func fulfillOrder(orderId: String, playerId: String, transactionId: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE orders SET status = 'fulfilled', fulfilled_by = ?, fulfilled_at = ?
            WHERE order_id = ? AND player_id = ? AND status = 'created'
            RETURNING order_id
            """,
            [.text(transactionId), .timestamp(at), .text(orderId), .text(playerId)]
        )
    }

    // MARK: Purchases

    /// Inserts the purchase unless the transaction id is taken; a row only when inserted.
    static func insertPurchase(_ delivery: Delivery, deliveredAt: Date) throws -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO purchases (transaction_id, original_transaction_id, player_id, order_id, product_id, \
            quantity, environment, source, flags, grants, status, purchase_date, delivered_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'delivered', ?, ?)
            ON CONFLICT (transaction_id) DO NOTHING
            RETURNING \(purchaseColumns)
            """,
            [
                .text(delivery.transactionId), .text(delivery.originalTransactionId), .text(delivery.playerId),
                .optional(delivery.orderId), .text(delivery.productId), .integer(Int64(delivery.quantity)),
                .text(delivery.environment.rawValue), .text(delivery.source.rawValue),
                .text(LedgerJSON.flags(delivery.flags)), .text(LedgerJSON.text(delivery.grants)),
                .timestamp(delivery.purchaseDate), .timestamp(deliveredAt),
            ]
        )
    }

    static func setPurchaseFlags(transactionId: String, flags: Set<String>) throws -> LedgerStatement {
        LedgerStatement(
            "UPDATE purchases SET flags = ? WHERE transaction_id = ? RETURNING \(purchaseColumns)",
            [.text(LedgerJSON.flags(flags)), .text(transactionId)]
        )
    }

    static func purchase(transactionId: String) -> LedgerStatement {
        LedgerStatement("SELECT \(purchaseColumns) FROM purchases WHERE transaction_id = ?", [.text(transactionId)])
    }

    static func purchases(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(purchaseColumns) FROM purchases WHERE player_id = ? ORDER BY delivered_at, transaction_id",
            [.text(playerId)]
        )
    }

    /// Moves the purchase's refunded share from `from` to `purchase`'s (with its status,
    /// refund date and reason); a row only when this statement changed it (the share was
    /// still `from`).
    static func setRefundedShare(_ purchase: Purchase, from: Int) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE purchases SET refunded_share = ?, status = ?, refunded_at = ?, refund_reason = ?
            WHERE transaction_id = ? AND refunded_share = ?
            RETURNING \(purchaseColumns)
            """,
            [
                .integer(Int64(purchase.refundedShare)), .text(purchase.status.rawValue),
                .optional(purchase.refundedAt), .optional(purchase.refundReason), .text(purchase.transactionId),
                .integer(Int64(from)),
            ]
        )
    }

    // MARK: Ledger and balances

    /// Adds `amount` to the player's balance of `item`; returns the new balance.
    static func addToBalance(playerId: String, item: String, amount: Int64, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO balances (player_id, item, amount, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (player_id, item)
            DO UPDATE SET amount = balances.amount + excluded.amount, updated_at = excluded.updated_at
            RETURNING amount
            """,
            [.text(playerId), .text(item), .integer(amount), .timestamp(at)]
        )
    }

    /// Appends a ledger entry; returns it.
    static func insertEntry(
        playerId: String,
        item: String,
        amount: Int64,
        kind: LedgerEntryKind,
        transactionId: String?,
        reason: String?,
        actor: String?,
        balanceAfter: Int64,
        at: Date
    ) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO ledger_entries (player_id, item, amount, kind, transaction_id, reason, actor, \
            balance_after, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING \(entryColumns)
            """,
            [
                .text(playerId), .text(item), .integer(amount), .text(kind.rawValue), .optional(transactionId),
                .optional(reason), .optional(actor), .integer(balanceAfter), .timestamp(at),
            ]
        )
    }

    static func balances(playerId: String) -> LedgerStatement {
        LedgerStatement("SELECT item, amount FROM balances WHERE player_id = ? ORDER BY item", [.text(playerId)])
    }

    static func entries(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(entryColumns) FROM ledger_entries WHERE player_id = ? ORDER BY id",
            [.text(playerId)]
        )
    }

    // MARK: Outbox

    /// Enqueues a message unless its idempotency key is taken.
    static func insertOutbox(
        idempotencyKey: String,
        playerId: String,
        transactionId: String?,
        payload: String,
        at: Date
    ) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO outbox (idempotency_key, player_id, transaction_id, payload, attempts, next_attempt_at, \
            created_at)
            VALUES (?, ?, ?, ?, 0, ?, ?)
            ON CONFLICT (idempotency_key) DO NOTHING
            """,
            [
                .text(idempotencyKey), .text(playerId), .optional(transactionId), .text(payload), .timestamp(at),
                .timestamp(at),
            ]
        )
    }

    /// Claims due messages until `claimUntil`. PostgreSQL skips rows another worker is
    /// claiming at this moment (`FOR UPDATE SKIP LOCKED`); SQLite has a single writer.
    static func claimOutbox(now: Date, claimUntil: Date, limit: Int, dialect: Dialect) -> LedgerStatement {
        let locking = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return LedgerStatement(
            """
            UPDATE outbox SET next_attempt_at = ?
            WHERE id IN (
                SELECT id FROM outbox
                WHERE delivered_at IS NULL AND next_attempt_at <= ?
                ORDER BY next_attempt_at, id
                LIMIT ?\(locking)
            )
            RETURNING \(outboxColumns)
            """,
            [.timestamp(claimUntil), .timestamp(now), .integer(Int64(limit))]
        )
    }

    static func markOutboxDelivered(id: Int64, at: Date) -> LedgerStatement {
        LedgerStatement(
            "UPDATE outbox SET delivered_at = ?, last_error = NULL WHERE id = ? AND delivered_at IS NULL",
            [.timestamp(at), .integer(id)]
        )
    }

    static func markOutboxFailed(id: Int64, nextAttemptAt: Date, error: String) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
            WHERE id = ? AND delivered_at IS NULL
            """,
            [.timestamp(nextAttemptAt), .text(error), .integer(id)]
        )
    }

    static func outbox(idempotencyKey: String) -> LedgerStatement {
        LedgerStatement("SELECT \(outboxColumns) FROM outbox WHERE idempotency_key = ?", [.text(idempotencyKey)])
    }

    // MARK: History

    /// Appends an event; returns it.
    static func insertEvent(_ event: HistoryEvent) throws -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO history_events (type, player_id, order_id, transaction_id, detail, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            RETURNING \(eventColumns)
            """,
            [
                .text(event.type.rawValue), .optional(event.playerId), .optional(event.orderId),
                .optional(event.transactionId), .text(LedgerJSON.text(event.detail)), .timestamp(event.createdAt),
            ]
        )
    }

    /// The player's events, plus player-less events (notifications) of transactions later
    /// delivered to the player, in time order.
    static func timeline(playerId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(eventColumns) FROM history_events WHERE player_id = ?
            UNION ALL
            SELECT \(eventColumns) FROM history_events
            WHERE player_id IS NULL
              AND transaction_id IN (SELECT transaction_id FROM purchases WHERE player_id = ?)
            ORDER BY created_at, id
            """,
            [.text(playerId), .text(playerId)]
        )
    }

    /// A page of ``timeline(playerId:)``: at most `limit` events after `after`.
    static func timeline(playerId: String, after: LedgerCursor?, limit: Int) -> LedgerStatement {
        let start = after ?? LedgerCursor(createdAt: Date(ledgerMilliseconds: 0), id: "0")
        let afterId = Int64(start.id) ?? 0
        let position: [SQLArgument] = [.timestamp(start.createdAt), .timestamp(start.createdAt), .integer(afterId)]
        let isAfter = "(created_at > ? OR (created_at = ? AND id > ?))"
        return LedgerStatement(
            """
            SELECT \(eventColumns) FROM history_events WHERE player_id = ? AND \(isAfter)
            UNION ALL
            SELECT \(eventColumns) FROM history_events
            WHERE player_id IS NULL AND \(isAfter)
              AND transaction_id IN (SELECT transaction_id FROM purchases WHERE player_id = ?)
            ORDER BY created_at, id
            LIMIT ?
            """,
            [.text(playerId)] + position + position + [.text(playerId), .integer(Int64(limit))]
        )
    }

    /// Deletes the player's oldest client events beyond the `keep` latest.
    static func pruneClientEvents(playerId: String, keep: Int) -> LedgerStatement {
        LedgerStatement(
            """
            DELETE FROM history_events
            WHERE type = 'client_event' AND player_id = ? AND id <= (
                SELECT id FROM history_events WHERE type = 'client_event' AND player_id = ?
                ORDER BY id DESC LIMIT 1 OFFSET ?)
            """,
            [.text(playerId), .text(playerId), .integer(Int64(keep))]
        )
    }

    /// The history of a transaction. A device's event (`client_event`) is part of it only
    /// when the player who posted it is the one the transaction was delivered to: any
    /// player may name any transaction in an event, and it stays on that player's own
    /// timeline, never in someone else's records (nor in the record of a transaction
    /// delivered to nobody yet).
    static func events(transactionId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(eventColumns) FROM history_events
            WHERE transaction_id = ?
                AND (type <> 'client_event'
                    OR player_id = (SELECT player_id FROM purchases WHERE transaction_id = ?))
            ORDER BY created_at, id
            """,
            [.text(transactionId), .text(transactionId)]
        )
    }

    /// The history of an order; a device's event is part of it only when posted by the
    /// order's player (as for ``events(transactionId:)``).
    static func events(orderId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(eventColumns) FROM history_events
            WHERE order_id = ?
                AND (type <> 'client_event' OR player_id = (SELECT player_id FROM orders WHERE order_id = ?))
            ORDER BY created_at, id
            """,
            [.text(orderId), .text(orderId)]
        )
    }

    // MARK: Notifications

    /// Records a notification unless its UUID is known; a row only when recorded.
    static func insertNotification(_ notification: NotificationRecord) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO notifications (notification_uuid, notification_type, subtype, transaction_id, received_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (notification_uuid) DO NOTHING
            RETURNING notification_uuid
            """,
            [
                .text(notification.notificationUUID), .text(notification.type), .optional(notification.subtype),
                .optional(notification.transactionId), .timestamp(notification.receivedAt),
            ]
        )
    }

    /// The history event for a new notification, attributed to the transaction's player
    /// when the transaction was already delivered.
    static func insertNotificationEvent(
        _ notification: NotificationRecord,
        signedDate: Date?,
        revokedShare: Int?
    ) throws -> LedgerStatement {
        var detail = ["notificationUUID": notification.notificationUUID, "notificationType": notification.type]
        detail["subtype"] = notification.subtype
        detail["signedDate"] = signedDate.map { String($0.ledgerMilliseconds) }
        detail["revokedShare"] = revokedShare.map(String.init)
        let transactionId = SQLArgument.optional(notification.transactionId)
        return LedgerStatement(
            """
            INSERT INTO history_events (type, player_id, order_id, transaction_id, detail, created_at)
            VALUES (?, (SELECT player_id FROM purchases WHERE transaction_id = ?),
                    (SELECT order_id FROM purchases WHERE transaction_id = ?), ?, ?, ?)
            """,
            [
                .text(HistoryEventType.notificationReceived.rawValue), transactionId, transactionId, transactionId,
                .text(LedgerJSON.text(detail)), .timestamp(notification.receivedAt),
            ]
        )
    }

    static func markNotificationProcessed(uuid: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            "UPDATE notifications SET processed_at = ? WHERE notification_uuid = ? AND processed_at IS NULL",
            [.timestamp(at), .text(uuid)]
        )
    }

    static func notification(uuid: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(notificationColumns) FROM notifications WHERE notification_uuid = ?",
            [.text(uuid)]
        )
    }

    // MARK: Checkpoints

    static func checkpoint(name: String) -> LedgerStatement {
        LedgerStatement("SELECT value FROM checkpoints WHERE name = ?", [.text(name)])
    }

    static func setCheckpoint(name: String, value: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            """
            INSERT INTO checkpoints (name, value, updated_at) VALUES (?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """,
            [.text(name), .text(value), .timestamp(at)]
        )
    }
}
