import Foundation

extension LedgerSQL {
    /// `1` as `seen` when the transaction id was delivered (in any store, while ids are unique
    /// across stores) or any notification about the store's transaction was recorded, else
    /// `0`.
    static func seenBefore(store: Store, transactionId: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT CASE WHEN EXISTS (SELECT 1 FROM purchases WHERE transaction_id = ?)
                OR EXISTS (
                    SELECT 1 FROM history_events WHERE transaction_id = ? AND type = ? AND \(storeOfEvent) = ?)
                THEN 1 ELSE 0 END AS seen
            """,
            [
                .text(transactionId), .text(transactionId), .text(HistoryEventType.notificationReceived.rawValue),
                .text(store.rawValue),
            ]
        )
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
    /// ``LedgerSchema/storeIdentity``); rows of `outcome`, `item`, `amount`.
    static func deliverByOrder(_ plan: OrderDeliveryPlan) throws -> LedgerStatement {
        let purchase = plan.purchase
        return LedgerStatement(
            """
            SELECT outcome, item, amount FROM storekeeper_deliver_by_order(
                CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .integer(transactionLockSpace), .text(purchase.store.rawValue),
                .text(purchase.store.key(purchase.transactionId)),
                .text(purchase.transactionId), .text(purchase.originalTransactionId),
                .text(purchase.playerId), .optional(purchase.orderId), .text(plan.appAccountToken),
                .text(purchase.productId), .integer(Int64(purchase.quantity)), .text(purchase.environment.rawValue),
                .text(purchase.source.rawValue), .text(LedgerJSON.flags(purchase.flags)),
                .text(LedgerJSON.text(purchase.grants)), .timestamp(purchase.purchaseDate),
                .timestamp(purchase.deliveredAt), .text(try plan.outboxPayload()),
                .text(try LedgerJSON.text(LedgerRules.deliveredEvent(purchase).detail)),
            ]
        )
    }
}
