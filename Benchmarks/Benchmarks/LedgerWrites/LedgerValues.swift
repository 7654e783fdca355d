import Foundation
import Ledger

/// The orders and deliveries the ledger benchmarks write: a player's order for a consumable,
/// and the delivery of a new transaction (Apple-style digits) naming it.
enum LedgerValues {
    static let player = "player-1"
    static let product = "coins100"

    /// A new order, open for an hour.
    static func order() -> Order {
        let now = Date()
        return Order(
            orderId: UUID().uuidString.lowercased(),
            playerId: player,
            productId: product,
            appAccountToken: UUID().uuidString.lowercased(),
            createdAt: now,
            expiresAt: now.addingTimeInterval(3600)
        )
    }

    /// The delivery of a new transaction for `order`, granting 100 coins.
    static func delivery(for order: Order) -> Delivery {
        let transactionId = String(UInt64.random(in: 100_000_000_000_000...999_999_999_999_999))
        return Delivery(
            transactionId: transactionId,
            originalTransactionId: transactionId,
            playerId: order.playerId,
            orderId: order.orderId,
            productId: order.productId,
            environment: .sandbox,
            source: .clientSignedTransaction,
            grants: ["coins": 100],
            purchaseDate: Date()
        )
    }

    /// Creates a new order in `store` and answers the delivery naming it, with the order.
    static func deliveryOfCreatedOrder(in store: SQLiteLedgerStore) async throws -> (Delivery, Order) {
        let order = try await store.createOrder(order())
        return (delivery(for: order), order)
    }
}
