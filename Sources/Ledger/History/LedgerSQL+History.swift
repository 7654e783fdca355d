import Foundation

extension LedgerSQL {
    /// The store of an event's transaction, as SQL: events recorded before the ledger named
    /// stores (``LedgerSchema/storeIdentity``) have none, and were the App Store's.
    static let storeOfEvent = "COALESCE(history_events.store, '\(Store.appStore.rawValue)')"

    /// Appends an event; returns it.
    static func insertEvent(_ event: HistoryEvent) throws -> LedgerStatement {
        HistoryEventTable.insert(
            [
                .type: .text(event.type.rawValue), .playerId: .optional(event.playerId),
                .orderId: .optional(event.orderId), .transactionId: .optional(event.transactionId),
                .store: .optional(event.store?.rawValue), .detail: .text(LedgerJSON.text(event.detail)),
                .createdAt: .timestamp(event.createdAt),
            ],
            "RETURNING \(HistoryEventTable.columns)")
    }

    /// The player's events, plus player-less events (notifications) of transactions later
    /// delivered to the player, in time order.
    static func timeline(playerId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(HistoryEventTable.columns) FROM history_events WHERE player_id = ?
            UNION ALL
            SELECT \(HistoryEventTable.columns) FROM history_events
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
            SELECT \(HistoryEventTable.columns) FROM history_events WHERE player_id = ? AND \(isAfter)
            UNION ALL
            SELECT \(HistoryEventTable.columns) FROM history_events
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
            SELECT \(HistoryEventTable.columns) FROM history_events
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
            SELECT \(HistoryEventTable.columns) FROM history_events
            WHERE order_id = ?
                AND (type <> 'client_event' OR player_id = (SELECT player_id FROM orders WHERE order_id = ?))
            ORDER BY created_at, id
            """,
            [.text(orderId), .text(orderId)]
        )
    }
}
