import Foundation

extension LedgerWrites {
    /// Delivers a transaction exactly once (see ``LedgerStore/deliver(_:)``): the primary key
    /// on `transaction_id` decides, the first insert wins. (A concurrent PostgreSQL insert of
    /// the same id waits for the first transaction, then does nothing.) A transaction whose
    /// latest recorded refund-state word is a refund is refused, in the same database
    /// transaction that would write it (see ``readRefundState(transactionId:dialect:)``).
    static func deliver(
        _ delivery: Delivery,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) throws -> LedgerOperation<DeliveryResult> {
        let insert = try LedgerSQL.insertPurchase(delivery, deliveredAt: now)
        return readRefundState(transactionId: delivery.transactionId, dialect: dialect)
            .then { notices in
                .checkpoint(.refundStateRead(transactionId: delivery.transactionId), returning: notices)
            }
            .then { notices in
                guard notices.isRevoked else { return .first(insert, Purchase.init(row:)) }
                // Refused, unless delivered before the refund (then it is already settled).
                return LedgerOperation.first(
                    LedgerSQL.purchase(transactionId: delivery.transactionId), Purchase.init(row:)
                )
                .map { existing in
                    guard existing != nil else {
                        throw LedgerError.transactionRevoked(transactionId: delivery.transactionId)
                    }
                    return nil
                }
            }
            .then { inserted in
                guard let inserted else {
                    return LedgerOperation.first(
                        LedgerSQL.purchase(transactionId: delivery.transactionId),
                        Purchase.init(row:)
                    )
                    .map { existing in
                        guard let existing else {
                            throw LedgerError.corruptRow(
                                "purchase \(delivery.transactionId) conflicted but is missing")
                        }
                        return .alreadyDelivered(existing)
                    }
                }
                return fulfillOrder(of: delivery, purchase: inserted, at: now)
                    .then { purchase in grant(purchase, at: now).map { .delivered(purchase) } }
            }
    }

    /// Marks the delivery's order (if any) fulfilled by this purchase. Throws when the order
    /// is missing or another player's; when another transaction fulfilled it first, returns
    /// the purchase flagged ``PurchaseFlag/orderAlreadyFulfilled``.
    private static func fulfillOrder(
        of delivery: Delivery,
        purchase: Purchase,
        at now: Date
    ) -> LedgerOperation<Purchase> {
        guard let orderId = delivery.orderId else { return .done(purchase) }
        let fulfill = LedgerSQL.fulfillOrder(
            orderId: orderId,
            playerId: delivery.playerId,
            transactionId: delivery.transactionId,
            at: now
        )
        return LedgerOperation.first(fulfill) { _ in () }.then { fulfilled in
            guard fulfilled == nil else { return .done(purchase) }
            return LedgerOperation.first(LedgerSQL.order(id: orderId), Order.init(row:)).then { order in
                guard let order else { throw LedgerError.unknownOrder(orderId: orderId) }
                guard order.playerId == delivery.playerId else {
                    throw LedgerError.orderBelongsToOtherPlayer(orderId: orderId, playerId: delivery.playerId)
                }
                var flags = purchase.flags
                flags.insert(PurchaseFlag.orderAlreadyFulfilled)
                return LedgerOperation.first(
                    try LedgerSQL.setPurchaseFlags(transactionId: purchase.transactionId, flags: flags),
                    Purchase.init(row:)
                )
                .map { $0 ?? purchase }
            }
        }
    }

    /// Posts a new purchase's ``LedgerEntryKind/grant`` entries, enqueues its outbox message
    /// (idempotency key = transaction id) and appends its ``HistoryEventType/delivered`` event.
    private static func grant(_ purchase: Purchase, at now: Date) -> LedgerOperation<Void> {
        post(
            playerId: purchase.playerId,
            grants: purchase.grants,
            kind: .grant,
            transactionId: purchase.transactionId,
            reason: nil,
            actor: nil,
            at: now
        )
        .then { _ in
            .execute(
                LedgerSQL.insertOutbox(
                    idempotencyKey: purchase.transactionId,
                    playerId: purchase.playerId,
                    transactionId: purchase.transactionId,
                    payload: String(decoding: try DeliveryMessage(purchase: purchase).encoded(), as: UTF8.self),
                    at: now
                )
            )
        }
        .then { .execute(try LedgerSQL.insertEvent(LedgerRules.deliveredEvent(purchase))) }
    }
}
