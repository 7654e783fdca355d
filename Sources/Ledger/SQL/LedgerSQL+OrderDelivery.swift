import Foundation

extension LedgerSQL {
    /// Whether any notification about the transaction was recorded (`1` as `notified`, or
    /// no row).
    static func anyNotification(transactionId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT 1 AS notified FROM history_events WHERE transaction_id = ? AND type = ? LIMIT 1",
            [.text(transactionId), .text(HistoryEventType.notificationReceived.rawValue)]
        )
    }

    /// Whether the transaction was delivered (`1` as `delivered`, or no row).
    static func purchaseExists(transactionId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT 1 AS delivered FROM purchases WHERE transaction_id = ?", [.text(transactionId)])
    }

    /// Marks the order fulfilled only when it is the player's unfulfilled order for the
    /// product and carries the token; a row only when it did.
    static func fulfillOrder(
        orderId: String, playerId: String, appAccountToken: String, productId: String, transactionId: String, at: Date
    ) -> LedgerStatement {
        LedgerStatement(
            """
            UPDATE orders SET status = 'fulfilled', fulfilled_by = ?, fulfilled_at = ?
            WHERE order_id = ? AND player_id = ? AND app_account_token = ? AND product_id = ? AND status = 'created'
            RETURNING order_id
            """,
            [
                .text(transactionId), .timestamp(at), .text(orderId), .text(playerId),
                .text(appAccountToken.lowercased()), .text(productId),
            ]
        )
    }

    /// PostgreSQL: the whole delivery by order in one statement (the function of
    /// ``LedgerSchema/orderDelivery``); rows of `outcome`, `item`, `amount`.
    static func deliverByOrder(_ plan: OrderDeliveryPlan) throws -> LedgerStatement {
        let purchase = plan.purchase
        return LedgerStatement(
            """
            SELECT outcome, item, amount FROM storekeeper_deliver_by_order(
                CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(refundStateLockSpace), .text(purchase.transactionId), .text(purchase.originalTransactionId),
                .text(purchase.playerId), .optional(purchase.orderId), .text(plan.appAccountToken),
                .text(purchase.productId), .integer(Int64(purchase.quantity)), .text(purchase.environment.rawValue),
                .text(purchase.source.rawValue), .text(try LedgerJSON.flags(purchase.flags)),
                .text(try LedgerJSON.text(purchase.grants)), .timestamp(purchase.purchaseDate),
                .timestamp(purchase.deliveredAt), .text(try plan.outboxPayload()),
                .text(try LedgerJSON.text(LedgerRules.deliveredEvent(purchase).detail)),
            ]
        )
    }
}
