import AppStoreModel
import Foundation

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
