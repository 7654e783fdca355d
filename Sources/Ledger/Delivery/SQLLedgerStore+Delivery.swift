import Foundation

extension SQLLedgerStore {
    public func deliver(_ delivery: Delivery) async throws -> DeliveryResult {
        try LedgerRules.validate(delivery)
        var delivery = delivery
        delivery.purchaseDate = delivery.purchaseDate.ledgerNormalized
        return try await write(try LedgerWrites.deliver(delivery, dialect: dialect, at: now))
    }

    public func purchase(store: Store, transactionId: String) async throws -> Purchase? {
        try await read(.first(LedgerSQL.purchase(store: store, transactionId: transactionId), Purchase.init(row:)))
    }

    public func purchases(playerId: String) async throws -> [Purchase] {
        try await read(.rows(LedgerSQL.purchases(playerId: playerId), Purchase.init(row:)))
    }
}
