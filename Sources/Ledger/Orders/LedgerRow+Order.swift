import Foundation

extension Order {
    /// Reads an order from a row with ``OrderTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<OrderTable>(row)
        self.init(
            orderId: try row.requiredText(.orderId),
            playerId: try row.requiredText(.playerId),
            productId: try row.requiredText(.productId),
            quantity: Int(try row.requiredInteger(.quantity)),
            appAccountToken: try row.requiredText(.appAccountToken),
            status: try row.enumeration(OrderStatus.self, .status),
            createdAt: try row.requiredTimestamp(.createdAt),
            expiresAt: try row.requiredTimestamp(.expiresAt),
            fulfilledBy: try row.text(.fulfilledBy)
        )
    }
}
