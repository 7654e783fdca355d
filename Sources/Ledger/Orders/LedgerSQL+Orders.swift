import Foundation

extension LedgerSQL {
    /// Inserts an order unless its id or token is taken; returns a row only when inserted.
    static func insertOrder(_ order: Order) -> LedgerStatement {
        OrderTable.insert(
            [
                .orderId: .text(order.orderId),
                .playerId: .text(order.playerId),
                .productId: .text(order.productId),
                .quantity: .integer(Int64(order.quantity)),
                .appAccountToken: .text(order.appAccountToken),
                .status: .text(order.status.rawValue),
                .createdAt: .timestamp(order.createdAt),
                .expiresAt: .timestamp(order.expiresAt),
                .fulfilledBy: .optional(order.fulfilledBy),
            ],
            "ON CONFLICT DO NOTHING RETURNING \(OrderTable.columns)")
    }

    static func order(id: String) -> LedgerStatement {
        LedgerStatement("SELECT \(OrderTable.columns) FROM orders WHERE order_id = ?", [.text(id)])
    }

    static func order(appAccountToken: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(OrderTable.columns) FROM orders WHERE app_account_token = ?",
            [.text(appAccountToken.lowercased())]
        )
    }

    static func orders(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(OrderTable.columns) FROM orders WHERE player_id = ? ORDER BY created_at, order_id",
            [.text(playerId)]
        )
    }

    /// A page of ``orders(playerId:)``: at most `limit` orders after `after`.
    static func orders(playerId: String, after: LedgerCursor?, limit: Int) -> LedgerStatement {
        let start = after ?? LedgerCursor(createdAt: Date(ledgerMilliseconds: 0), id: "")
        return LedgerStatement(
            """
            SELECT \(OrderTable.columns) FROM orders
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
}
