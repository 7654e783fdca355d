import Foundation

extension LedgerWrites {
    /// The steps of ``LedgerStore/deliverByOrder(_:appAccountToken:)`` as statements of one
    /// transaction (SQLite; PostgreSQL runs them in one function, ``LedgerSchema/orderDelivery``).
    /// Nothing is written unless the transaction is new and never notified and the order is
    /// the player's unfulfilled order for the product with the token; then the writes are
    /// those of ``deliver(_:dialect:at:)`` for such a delivery, and the answer carries the
    /// player's balances.
    static func deliverByOrder(
        _ plan: OrderDeliveryPlan, dialect: LedgerSQL.Dialect
    ) -> LedgerOperation<OrderDeliveryResult> {
        let delivery = plan.delivery
        let purchase = plan.purchase
        let transactionId = delivery.transactionId
        guard let orderId = delivery.orderId else { return .done(.needsBinding) }
        let fulfill = LedgerSQL.fulfillOrder(
            orderId: orderId, playerId: delivery.playerId, appAccountToken: plan.appAccountToken,
            productId: delivery.productId, transactionId: transactionId, at: purchase.deliveredAt)
        return lockTransaction(store: delivery.store, transactionId: transactionId, dialect: dialect)
            .then {
                LedgerOperation<Int64?>.first(LedgerSQL.seenBefore(store: delivery.store, transactionId: transactionId))
                {
                    try $0.requiredInteger("seen")
                }
            }
            .then { seen in
                // Nothing is written before the order is claimed.
                guard seen == 0 else { return .done(false) }
                return LedgerOperation<[Bool]>.rows(fulfill) { _ in true }.map { !$0.isEmpty }
            }
            .then { fulfilled -> LedgerOperation<OrderDeliveryResult> in
                guard fulfilled else { return .done(.needsBinding) }
                return LedgerOperation<[Bool]>.rows(
                    try LedgerSQL.insertPurchase(delivery, deliveredAt: purchase.deliveredAt)
                ) { _ in true }
                .then { inserted in
                    guard inserted.count == 1 else {
                        throw LedgerError.corruptRow("purchase \(transactionId) exists after the check")
                    }
                    return grant(purchase, at: purchase.deliveredAt)
                }
                .then {
                    LedgerOperation<[(String, Int64)]>.rows(LedgerSQL.balances(playerId: delivery.playerId)) {
                        (try $0.requiredText("item"), try $0.requiredInteger("amount"))
                    }
                }
                .map { rows in .delivered(purchase, balances: Dictionary(rows, uniquingKeysWith: { first, _ in first }))
                }
            }
    }
}
