import Foundation

extension LedgerWrites {
    /// The steps of ``LedgerStore/deliverByOrder(_:appAccountToken:)`` as statements of one
    /// transaction (SQLite; PostgreSQL runs them in one function, ``LedgerSchema/orderDelivery``).
    /// Nothing is written unless the transaction is new and never notified and the order is
    /// the player's unfulfilled order for the product with the token; then the writes are
    /// those of ``deliver(_:dialect:at:)`` for such a delivery, and the answer carries the
    /// player's balances.
    static func deliverByOrder(_ plan: OrderDeliveryPlan, dialect: LedgerSQL.Dialect) -> LedgerOperation<
        OrderDeliveryResult
    > {
        let delivery = plan.delivery
        let transactionId = delivery.transactionId
        guard let orderId = delivery.orderId else { return .done(.needsBinding) }
        let fulfill = LedgerSQL.fulfillOrder(
            orderId: orderId, playerId: delivery.playerId, appAccountToken: plan.appAccountToken,
            productId: delivery.productId, transactionId: transactionId, at: plan.purchase.deliveredAt)
        return lockRefundState(transactionId: transactionId, dialect: dialect)
            .then {
                LedgerOperation<[Bool]>.rows(LedgerSQL.anyNotification(transactionId: transactionId)) { _ in true }
            }
            .then { notified in
                guard notified.isEmpty else { return .done(false) }
                return LedgerOperation<[Bool]>.rows(LedgerSQL.purchaseExists(transactionId: transactionId)) { _ in true
                }
                .then { delivered in
                    guard delivered.isEmpty else { return .done(false) }
                    return LedgerOperation<[Bool]>.rows(fulfill) { _ in true }.map { !$0.isEmpty }
                }
            }
            .then { fulfilled -> LedgerOperation<OrderDeliveryResult> in
                guard fulfilled else { return .done(.needsBinding) }
                return LedgerOperation.first(
                    try LedgerSQL.insertPurchase(delivery, deliveredAt: plan.purchase.deliveredAt), Purchase.init(row:)
                )
                .then { inserted in
                    guard let inserted else {
                        throw LedgerError.corruptRow("purchase \(transactionId) exists after the check")
                    }
                    return grant(inserted, at: plan.purchase.deliveredAt).map { inserted }
                }
                .then { purchase in
                    LedgerOperation<[(String, Int64)]>.rows(LedgerSQL.balances(playerId: delivery.playerId)) {
                        (try $0.requiredText("item"), try $0.requiredInteger("amount"))
                    }
                    .map { rows in
                        .delivered(purchase, balances: Dictionary(rows, uniquingKeysWith: { first, _ in first }))
                    }
                }
            }
    }
}
