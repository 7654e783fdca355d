import Foundation

extension LedgerRules {
    /// The order as stored: token lowercased, dates at the ledger's resolution.
    static func normalized(_ order: Order) -> Order {
        var order = order
        order.appAccountToken = order.appAccountToken.lowercased()
        order.createdAt = order.createdAt.ledgerNormalized
        order.expiresAt = order.expiresAt.ledgerNormalized
        return order
    }

    /// The event recording a new order.
    static func orderCreatedEvent(_ order: Order) -> HistoryEvent {
        HistoryEvent(
            type: .orderCreated,
            playerId: order.playerId,
            orderId: order.orderId,
            detail: [
                "productId": order.productId,
                "quantity": String(order.quantity),
                "appAccountToken": order.appAccountToken,
                "expiresAt": String(order.expiresAt.ledgerMilliseconds),
            ],
            createdAt: order.createdAt
        )
    }
}
