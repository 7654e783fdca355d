import Foundation

extension LedgerSQL {
    static let purchaseColumns = """
        transaction_id, original_transaction_id, player_id, order_id, product_id, quantity, environment, \
        source, flags, grants, status, purchase_date, delivered_at, refunded_at, refund_reason, refunded_share
        """

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
}
