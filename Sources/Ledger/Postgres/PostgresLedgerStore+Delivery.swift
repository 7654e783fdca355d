import Foundation
import PostgresNIO

extension PostgresLedgerStore {
    public func createOrder(_ order: Order) async throws -> Order {
        let order = LedgerRules.normalized(order)
        return try await transaction { connection in
            guard let row = try await connection.row(LedgerSQL.insertOrder(order), logger: self.logger) else {
                throw LedgerError.duplicateOrder(orderId: order.orderId)
            }
            try await connection.run(LedgerSQL.insertEvent(LedgerRules.orderCreatedEvent(order)), logger: self.logger)
            return try Order(row: row)
        }
    }

    public func deliver(_ delivery: Delivery) async throws -> DeliveryResult {
        try LedgerRules.validate(delivery)
        var delivery = delivery
        delivery.purchaseDate = delivery.purchaseDate.ledgerNormalized
        let now = self.now
        return try await transaction { [delivery] connection in
            // The primary key on transaction_id decides: a concurrent insert of the same id
            // waits for the first transaction, then does nothing.
            guard
                let inserted = try await connection.row(
                    LedgerSQL.insertPurchase(delivery, deliveredAt: now),
                    logger: self.logger
                )
            else {
                guard
                    let existing = try await connection.row(
                        LedgerSQL.purchase(transactionId: delivery.transactionId),
                        logger: self.logger
                    )
                else { throw LedgerError.corruptRow("purchase \(delivery.transactionId) conflicted but is missing") }
                return .alreadyDelivered(try Purchase(row: existing))
            }
            var purchase = try Purchase(row: inserted)
            if let orderId = delivery.orderId {
                let fulfilled = try await connection.row(
                    LedgerSQL.fulfillOrder(
                        orderId: orderId,
                        playerId: delivery.playerId,
                        transactionId: delivery.transactionId,
                        at: now
                    ),
                    logger: self.logger
                )
                if fulfilled == nil {
                    guard
                        let order = try await connection.row(LedgerSQL.order(id: orderId), logger: self.logger)
                            .map(Order.init(row:))
                    else { throw LedgerError.unknownOrder(orderId: orderId) }
                    guard order.playerId == delivery.playerId else {
                        throw LedgerError.orderBelongsToOtherPlayer(orderId: orderId, playerId: delivery.playerId)
                    }
                    var flags = purchase.flags
                    flags.insert(PurchaseFlag.orderAlreadyFulfilled)
                    if let row = try await connection.row(
                        LedgerSQL.setPurchaseFlags(transactionId: purchase.transactionId, flags: flags),
                        logger: self.logger
                    ) {
                        purchase = try Purchase(row: row)
                    }
                }
            }
            _ = try await self.post(
                connection,
                playerId: purchase.playerId,
                grants: purchase.grants,
                kind: .grant,
                transactionId: purchase.transactionId,
                reason: nil,
                actor: nil,
                at: now
            )
            try await connection.run(
                LedgerSQL.insertOutbox(
                    idempotencyKey: purchase.transactionId,
                    playerId: purchase.playerId,
                    transactionId: purchase.transactionId,
                    payload: String(decoding: try DeliveryMessage(purchase: purchase).encoded(), as: UTF8.self),
                    at: now
                ),
                logger: self.logger
            )
            try await connection.run(LedgerSQL.insertEvent(LedgerRules.deliveredEvent(purchase)), logger: self.logger)
            return .delivered(purchase)
        }
    }

    /// Applies `grants` (signed amounts) to the player's balances and appends one ledger
    /// entry per item, in item order (so balance rows are always locked in one order).
    func post(
        _ connection: PostgresConnection,
        playerId: String,
        grants: Grants,
        kind: LedgerEntryKind,
        transactionId: String?,
        reason: String?,
        actor: String?,
        at: Date
    ) async throws -> LedgerPosting {
        var posting = LedgerPosting(entries: [], balances: [:])
        for (item, amount) in LedgerRules.ordered(grants) {
            guard
                let balance = try await connection.row(
                    LedgerSQL.addToBalance(playerId: playerId, item: item, amount: amount, at: at),
                    logger: logger
                ),
                let entry = try await connection.row(
                    LedgerSQL.insertEntry(
                        playerId: playerId,
                        item: item,
                        amount: amount,
                        kind: kind,
                        transactionId: transactionId,
                        reason: reason,
                        actor: actor,
                        balanceAfter: try balance.requiredInteger("amount"),
                        at: at
                    ),
                    logger: logger
                )
            else { throw LedgerError.corruptRow("balance update of \(item) returned nothing") }
            let recorded = try LedgerEntry(row: entry)
            posting.entries.append(recorded)
            posting.balances[item] = recorded.balanceAfter
        }
        return posting
    }
}
