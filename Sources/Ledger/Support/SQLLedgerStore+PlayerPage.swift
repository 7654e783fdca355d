import Foundation

extension SQLLedgerStore {
    public func playerTotals(playerId: String) async throws -> PlayerTotals {
        let entries = LedgerOperation<[PlayerTotals.EntryTotal]>.rows(LedgerSQL.entryTotals(playerId: playerId)) {
            PlayerTotals.EntryTotal(
                item: try $0.requiredText("item"), kind: try $0.enumeration(LedgerEntryKind.self, "kind"),
                amount: try $0.requiredInteger("total"))
        }
        let operation = entries.then { entries in
            LedgerOperation<[PlayerTotals.PurchaseGroup]>.rows(LedgerSQL.purchaseGroups(playerId: playerId)) {
                PlayerTotals.PurchaseGroup(
                    productId: try $0.requiredText("product_id"), quantity: Int(try $0.requiredInteger("quantity")),
                    refundedShare: Int(try $0.requiredInteger("refunded_share")),
                    count: Int(try $0.requiredInteger("purchases")))
            }
            .then { purchases in
                LedgerOperation<PlayerTotals?>.first(LedgerSQL.playerCounts(playerId: playerId)) {
                    PlayerTotals(
                        entries: entries, purchases: purchases,
                        manualGrantCount: Int(try $0.requiredInteger("manual_grants")),
                        spendCount: Int(try $0.requiredInteger("spends")),
                        orderCount: Int(try $0.requiredInteger("orders")))
                }
            }
        }
        guard let totals = try await readSnapshot(operation) else {
            throw LedgerError.corruptRow("the player's counts returned no row")
        }
        return totals
    }

    public func newestOrders(playerId: String, limit: Int) async throws -> [Order] {
        guard limit > 0 else { return [] }
        return try await read(.rows(LedgerSQL.newestOrders(playerId: playerId, limit: limit), Order.init(row:)))
    }

    public func newestPurchases(playerId: String, limit: Int) async throws -> [Purchase] {
        guard limit > 0 else { return [] }
        return try await read(.rows(LedgerSQL.newestPurchases(playerId: playerId, limit: limit), Purchase.init(row:)))
    }

    public func newestManualEntries(playerId: String, limit: Int) async throws -> [LedgerEntry] {
        guard limit > 0 else { return [] }
        return try await read(
            .rows(LedgerSQL.newestManualEntries(playerId: playerId, limit: limit), LedgerEntry.init(row:)))
    }
}
