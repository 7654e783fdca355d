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
    /// of a timeline's `UNION ALL`, from `player_unowned_events`
    /// (``LedgerSchema/playerUnownedEvents``): the player's rows lead (`CROSS JOIN` keeps them
    /// first on SQLite), each joined to its event by key. `condition` filters the rows
    /// (`player_unowned_events.…`) or their events (`history_events.…`); `order` and `limit`,
    /// when given, make it a subquery of its own that reads a page in an index's order. The
    /// player id is the first argument, then `condition`'s, then the limit.
    static func unownedEventsOfPlayer(where condition: String = "TRUE", orderedBy order: String? = nil) -> String {
        let rows = """
            SELECT \(HistoryEventTable.columns(qualifiedBy: "history_events"))
            FROM player_unowned_events CROSS JOIN history_events
            WHERE player_unowned_events.player_id = ? AND history_events.id = player_unowned_events.event_id
              AND \(condition)
            """
        guard let order else { return rows }
        return "SELECT * FROM (\(rows)\nORDER BY \(order) LIMIT ?) AS unowned"
    }

    /// The player's own events, as the first part of a timeline's `UNION ALL`, a page in
    /// `order` (a subquery of its own), from `table` (`history_events`, or the same with an
    /// index named). The player id is the first argument, then `condition`'s, then the limit.
    static func ownEventsOfPlayer(
        where condition: String, orderedBy order: String, from table: String = "history_events"
    ) -> String {
        """
        SELECT * FROM (
            SELECT \(HistoryEventTable.columns) FROM \(table) WHERE player_id = ? AND \(condition)
            ORDER BY \(order) LIMIT ?
        ) AS own
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

    /// A page of ``timeline(playerId:)``: at most `limit` events after `after`. Each part
    /// reads at most `limit` from its index in the timeline's order, from the cursor on (a
    /// row value, which both databases seek to).
    static func timeline(playerId: String, after: LedgerCursor?, limit: Int) -> LedgerStatement {
        let start = after ?? LedgerCursor(createdAt: Date(ledgerMilliseconds: 0), id: "0")
        let position: [SQLArgument] = [.timestamp(start.createdAt), .integer(Int64(start.id) ?? 0)]
        let bound: [SQLArgument] = [.integer(Int64(limit))]
        return LedgerStatement(
            """
            \(ownEventsOfPlayer(where: "(created_at, id) > (?, ?)", orderedBy: "created_at, id"))
            UNION ALL
            \(unownedEventsOfPlayer(
                where: "(player_unowned_events.created_at, player_unowned_events.event_id) > (?, ?)",
                orderedBy: "player_unowned_events.created_at, player_unowned_events.event_id"))
            ORDER BY created_at, id
            LIMIT ?
            """,
            [.text(playerId)] + position + bound + [.text(playerId)] + position + bound + bound
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
