import Foundation

extension LedgerWrites {
    /// Delivers a transaction exactly once (see ``LedgerStore/deliver(_:)``): the primary key
    /// on `transaction_id` decides, the first insert wins. (A concurrent PostgreSQL insert of
    /// the same id waits for the first transaction, then does nothing.) In the same database
    /// transaction, under the transaction lock (see ``readRefundNotices(store:transactionId:dialect:)``),
    /// a transaction whose latest recorded refund-state word refunds all of it is refused,
    /// and one refunded in part is delivered and its refunded share taken back at once. A
    /// delivery with an ``Delivery/entitlement`` sets it on its chain's entitlement
    /// (see ``grantEntitlement(_:of:reason:dialect:at:)``), in the same transaction.
    static func deliver(
        _ delivery: Delivery,
        dialect: LedgerSQL.Dialect,
        at now: Date
    ) throws -> LedgerOperation<DeliveryResult> {
        let insert = try LedgerSQL.insertPurchase(delivery, deliveredAt: now)
        let (store, transactionId) = (delivery.store, delivery.transactionId)
        return readRefundNotices(store: store, transactionId: transactionId, dialect: dialect)
            .then { notices in
                .pause(at: .refundNoticesRead(transactionId: transactionId), returning: notices)
            }
            .then { notices in
                // Refused when refunded in whole, unless delivered before (then it is settled).
                let refused = notices.share == RefundShare.whole
                let statement = refused ? LedgerSQL.purchase(store: store, transactionId: transactionId) : insert
                return LedgerOperation.first(statement, Purchase.init(row:)).then {
                    row -> LedgerOperation<DeliveryResult> in
                    switch (row, refused) {
                    case (let existing?, true): return .done(.alreadyDelivered(existing))
                    case (nil, true): throw LedgerError.transactionRevoked(transactionId: transactionId)
                    case (let inserted?, false):
                        return checkHolder(of: delivery, dialect: dialect)
                            .then { fulfillOrder(of: delivery, purchase: inserted, at: now) }
                            .then { purchase in grant(purchase, at: now).map { purchase } }
                            .then { purchase in
                                guard let entitlement = delivery.entitlement else { return .done(purchase) }
                                return grantEntitlement(
                                    entitlement, of: purchase, reason: entitlement.reason ?? delivery.source.rawValue,
                                    expectedHolder: delivery.boundByHolder, dialect: dialect, at: now
                                )
                                .map { purchase }
                            }
                            .then { purchase in
                                move(purchase, toRefundedShare: notices.share, reason: notices.latestReason, at: now)
                                    .map { movement in
                                        guard case .moved(let refunded, _, _) = movement else {
                                            return .delivered(purchase)
                                        }
                                        return .delivered(refunded)
                                    }
                            }
                    case (nil, false):
                        return LedgerOperation.first(
                            LedgerSQL.purchase(store: store, transactionId: transactionId), Purchase.init(row:)
                        )
                        .map { existing in
                            guard let existing else {
                                throw LedgerError.transactionIdOfOtherStore(store: store, transactionId: transactionId)
                            }
                            return .alreadyDelivered(existing)
                        }
                    }
                }
            }
    }

    /// Reads the chain's entitlement under its lock and throws
    /// ``LedgerError/chainHolderChanged(originalTransactionId:)`` (rolling the delivery back)
    /// when its holder is not the one the delivery was bound by: a transfer committed
    /// between the deliverer's read and this transaction. (A chain bound with no holder has
    /// no row to lock: ``grantEntitlement(_:of:reason:expectedHolder:dialect:at:)`` checks
    /// again what a concurrent first insert committed.)
    private static func checkHolder(of delivery: Delivery, dialect: LedgerSQL.Dialect) -> LedgerOperation<Void> {
        guard let expected = delivery.boundByHolder else { return .done(()) }
        let originalTransactionId = delivery.originalTransactionId
        return LedgerOperation.first(
            LedgerSQL.entitlement(
                store: delivery.store, originalTransactionId: originalTransactionId, locking: true, dialect: dialect),
            Entitlement.init(row:)
        )
        .map { entitlement in try check(entitlement, isHeldBy: expected, originalTransactionId) }
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
    /// (idempotency key: the store's key of the transaction id, ``Store/key(_:)``) and appends its ``HistoryEventType/delivered`` event.
    static func grant(_ purchase: Purchase, at now: Date) -> LedgerOperation<Void> {
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
                    idempotencyKey: purchase.store.key(purchase.transactionId),
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
