import Foundation

extension LedgerSQL {
    /// The store of an event's transaction, as SQL: events recorded before the ledger named
    /// stores (``LedgerSchema/storeIdentity``) have none, and were the App Store's.
    static let storeOfEvent = storeOfEvent(row: "history_events")

    /// ``storeOfEvent`` of the `history_events` row named `row` (a trigger's `NEW`).
    static func storeOfEvent(row: String) -> String { "COALESCE(\(row).store, '\(Store.appStore.rawValue)')" }

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

    /// The player-less events of the transactions delivered to a player, as the second part
    /// of a timeline's `UNION ALL`: the player's purchases lead (`CROSS JOIN` keeps them
    /// first on SQLite) and each transaction is one probe of `history_events_unowned`
    /// (``LedgerSchema/unownedEvents``), never a walk of every player-less event.
    /// `condition` filters the events (`history_events.…`); the player id is the first
    /// argument, then `condition`'s.
    static func unownedEventsOfPlayer(where condition: String = "TRUE") -> String {
        """
        SELECT \(HistoryEventTable.columns(qualifiedBy: "history_events")) FROM purchases CROSS JOIN history_events
        WHERE purchases.player_id = ? AND history_events.transaction_id = purchases.transaction_id
          AND history_events.player_id IS NULL AND \(condition)
        """
    }

    /// The player's events, plus player-less events (notifications) of transactions later
    /// delivered to the player, in time order.
    static func timeline(playerId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(HistoryEventTable.columns) FROM history_events WHERE player_id = ?
            UNION ALL
            \(unownedEventsOfPlayer())
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
        let isAfter =
            "(history_events.created_at > ? OR (history_events.created_at = ? AND history_events.id > ?))"
        return LedgerStatement(
            """
            SELECT \(HistoryEventTable.columns) FROM history_events WHERE player_id = ? AND \(isAfter)
            UNION ALL
            \(unownedEventsOfPlayer(where: isAfter))
            ORDER BY created_at, id
            LIMIT ?
            """,
            [.text(playerId)] + position + [.text(playerId)] + position + [.integer(Int64(limit))]
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
