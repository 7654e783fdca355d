import Foundation
import GRDB

extension SQLiteLedgerStore {
    public func createOrder(_ order: Order) async throws -> Order {
        let order = LedgerRules.normalized(order)
        return try await writer.write { db in
            guard let row = try db.row(LedgerSQL.insertOrder(order)) else {
                throw LedgerError.duplicateOrder(orderId: order.orderId)
            }
            try db.run(LedgerSQL.insertEvent(LedgerRules.orderCreatedEvent(order)))
            return try Order(row: row)
        }
    }

    public func deliver(_ delivery: Delivery) async throws -> DeliveryResult {
        try LedgerRules.validate(delivery)
        var delivery = delivery
        delivery.purchaseDate = delivery.purchaseDate.ledgerNormalized
        let now = self.now
        return try await writer.write { [delivery] db in
            // The primary key on transaction_id decides: the first insert wins.
            guard let inserted = try db.row(LedgerSQL.insertPurchase(delivery, deliveredAt: now)) else {
                guard let existing = try db.row(LedgerSQL.purchase(transactionId: delivery.transactionId)) else {
                    throw LedgerError.corruptRow("purchase \(delivery.transactionId) conflicted but is missing")
                }
                return .alreadyDelivered(try Purchase(row: existing))
            }
            var purchase = try Purchase(row: inserted)
            if let orderId = delivery.orderId {
                let fulfilled = try db.row(
                    LedgerSQL.fulfillOrder(
                        orderId: orderId,
                        playerId: delivery.playerId,
                        transactionId: delivery.transactionId,
                        at: now
                    )
                )
                if fulfilled == nil {
                    guard let order = try db.row(LedgerSQL.order(id: orderId)).map(Order.init(row:)) else {
                        throw LedgerError.unknownOrder(orderId: orderId)
                    }
                    guard order.playerId == delivery.playerId else {
                        throw LedgerError.orderBelongsToOtherPlayer(orderId: orderId, playerId: delivery.playerId)
                    }
                    var flags = purchase.flags
                    flags.insert(PurchaseFlag.orderAlreadyFulfilled)
                    if let row = try db.row(
                        LedgerSQL.setPurchaseFlags(transactionId: purchase.transactionId, flags: flags))
                    {
                        purchase = try Purchase(row: row)
                    }
                }
            }
            _ = try Self.post(
                db,
                playerId: purchase.playerId,
                grants: purchase.grants,
                kind: .grant,
                transactionId: purchase.transactionId,
                reason: nil,
                actor: nil,
                at: now
            )
            try db.run(
                LedgerSQL.insertOutbox(
                    idempotencyKey: purchase.transactionId,
                    playerId: purchase.playerId,
                    transactionId: purchase.transactionId,
                    payload: String(decoding: try DeliveryMessage(purchase: purchase).encoded(), as: UTF8.self),
                    at: now
                )
            )
            try db.run(LedgerSQL.insertEvent(LedgerRules.deliveredEvent(purchase)))
            return .delivered(purchase)
        }
    }

    /// Applies `grants` (signed amounts) to the player's balances and appends one ledger
    /// entry per item, in item order.
    static func post(
        _ db: Database,
        playerId: String,
        grants: Grants,
        kind: LedgerEntryKind,
        transactionId: String?,
        reason: String?,
        actor: String?,
        at: Date
    ) throws -> LedgerPosting {
        var posting = LedgerPosting(entries: [], balances: [:])
        for (item, amount) in LedgerRules.ordered(grants) {
            guard
                let balance = try db.row(
                    LedgerSQL.addToBalance(playerId: playerId, item: item, amount: amount, at: at)),
                let entry = try db.row(
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
                    )
                )
            else { throw LedgerError.corruptRow("balance update of \(item) returned nothing") }
            let recorded = try LedgerEntry(row: entry)
            posting.entries.append(recorded)
            posting.balances[item] = recorded.balanceAfter
        }
        return posting
    }
}
