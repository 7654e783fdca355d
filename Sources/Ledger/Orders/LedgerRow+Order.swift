import AppStoreModel
import Foundation

extension Order {
    /// Reads an order from a row with ``LedgerSQL/orderColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            orderId: try row.requiredText("order_id"),
            playerId: try row.requiredText("player_id"),
            productId: try row.requiredText("product_id"),
            quantity: Int(try row.requiredInteger("quantity")),
            appAccountToken: try row.requiredText("app_account_token"),
            status: try row.enumeration(OrderStatus.self, "status"),
            createdAt: try row.requiredTimestamp("created_at"),
            expiresAt: try row.requiredTimestamp("expires_at"),
            fulfilledBy: try row.text("fulfilled_by")
        )
    }
}
