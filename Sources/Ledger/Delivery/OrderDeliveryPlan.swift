import Foundation

/// What ``LedgerStore/deliverByOrder(_:appAccountToken:)`` records when the delivery goes
/// ahead, computed before the database is asked: the purchase, the token its order must
/// carry, and the outbox message.
struct OrderDeliveryPlan: Sendable {
    /// The delivery as given (its player and order are the ones the order must match).
    var delivery: Delivery
    /// The token the order must carry, lowercased as orders store it.
    var appAccountToken: String
    /// The purchase as it is recorded when delivered.
    var purchase: Purchase

    /// Plans `delivery` at `now` (at the ledger's resolution).
    init(_ delivery: Delivery, appAccountToken: String, at now: Date) {
        self.delivery = delivery
        self.appAccountToken = appAccountToken.lowercased()
        purchase = Purchase(
            store: delivery.store,
            transactionId: delivery.transactionId,
            originalTransactionId: delivery.originalTransactionId,
            playerId: delivery.playerId,
            orderId: delivery.orderId,
            productId: delivery.productId,
            quantity: delivery.quantity,
            environment: delivery.environment,
            source: delivery.source,
            flags: delivery.flags,
            grants: delivery.grants,
            status: .delivered,
            purchaseDate: delivery.purchaseDate,
            deliveredAt: now
        )
    }

    /// The outbox message's payload (``DeliveryMessage``).
    func outboxPayload() throws -> String {
        String(decoding: try DeliveryMessage(purchase: purchase).encoded(), as: UTF8.self)
    }
}
