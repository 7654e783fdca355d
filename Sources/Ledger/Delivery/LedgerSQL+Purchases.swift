import Foundation

extension LedgerSQL {
    /// Inserts the purchase unless the transaction id is taken (by this store, or while ids are
    /// unique across stores, by another: ``LedgerSchema/storeIdentity``); a row only when
    /// inserted.
    static func insertPurchase(_ delivery: Delivery, deliveredAt: Date) throws -> LedgerStatement {
        PurchaseTable.insert(
            [
                .store: .text(delivery.store.rawValue),
                .transactionId: .text(delivery.transactionId),
                .originalTransactionId: .text(delivery.originalTransactionId),
                .playerId: .text(delivery.playerId),
                .orderId: .optional(delivery.orderId),
                .productId: .text(delivery.productId),
                .quantity: .integer(Int64(delivery.quantity)),
                .environment: .text(delivery.environment.rawValue),
                .source: .text(delivery.source.rawValue),
                .flags: .text(LedgerJSON.flags(delivery.flags)),
                .grants: .text(LedgerJSON.text(delivery.grants)),
                .status: .text(PurchaseStatus.delivered.rawValue),
                .purchaseDate: .timestamp(delivery.purchaseDate),
                .deliveredAt: .timestamp(deliveredAt),
            ],
            "ON CONFLICT (transaction_id) DO NOTHING RETURNING \(PurchaseTable.columns)")
    }

    static func setPurchaseFlags(transactionId: String, flags: Set<String>) throws -> LedgerStatement {
        LedgerStatement(
            "UPDATE purchases SET flags = ? WHERE transaction_id = ? RETURNING \(PurchaseTable.columns)",
            [.text(LedgerJSON.flags(flags)), .text(transactionId)]
        )
    }

    /// The purchase of the store's transaction.
    static func purchase(store: Store, transactionId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(PurchaseTable.columns) FROM purchases WHERE transaction_id = ? AND store = ?",
            [.text(transactionId), .text(store.rawValue)])
    }

    static func purchases(playerId: String) -> LedgerStatement {
        LedgerStatement(
            "SELECT \(PurchaseTable.columns) FROM purchases WHERE player_id = ? ORDER BY delivered_at, transaction_id",
            [.text(playerId)]
        )
    }
}
