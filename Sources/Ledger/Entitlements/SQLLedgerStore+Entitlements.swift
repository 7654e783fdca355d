import Foundation

extension SQLLedgerStore {
    public func entitlements(playerId: String) async throws -> [Entitlement] {
        try await read(.rows(LedgerSQL.entitlements(playerId: playerId), Entitlement.init(row:)))
    }

    public func entitlement(store: Store, originalTransactionId: String) async throws -> Entitlement? {
        try await read(
            .first(
                LedgerSQL.entitlement(
                    store: store, originalTransactionId: originalTransactionId, locking: false, dialect: dialect),
                Entitlement.init(row:)))
    }

    public func updateEntitlement(_ update: EntitlementUpdate) async throws -> EntitlementChangeResult {
        var update = update
        update.signedAt = update.signedAt.ledgerNormalized
        update.until = update.until?.ledgerNormalized
        return try await write(LedgerWrites.updateEntitlement(update, dialect: dialect, at: now))
    }

    public func transferEntitlement(
        store: Store, originalTransactionId: String, to playerId: String, reason: String, actor: String?
    )
        async throws -> EntitlementTransferResult
    {
        try await write(
            LedgerWrites.transferEntitlement(
                store: store, originalTransactionId: originalTransactionId, to: playerId, reason: reason, actor: actor,
                dialect: dialect, at: now))
    }

    public func lapsedSubscriptions(before date: Date, limit: Int) async throws -> [Entitlement] {
        guard limit > 0 else { return [] }
        let statement = LedgerSQL.lapsedEntitlements(
            productType: .autoRenewable, before: date.ledgerNormalized, limit: limit)
        return try await read(.rows(statement, Entitlement.init(row:)))
    }

    @discardableResult
    public func postponeSubscriptionCheck(store: Store, originalTransactionId: String, now: Date) async throws -> Date?
    {
        try await write(
            LedgerWrites.postponeSubscriptionCheck(
                store: store, originalTransactionId: originalTransactionId, now: now.ledgerNormalized,
                dialect: dialect))
    }

    public func purchasesWithoutEntitlement(productIds: Set<String>, after cursor: Purchase?, limit: Int)
        async throws -> [Purchase]
    {
        guard limit > 0, !productIds.isEmpty else { return [] }
        let statement = LedgerSQL.purchasesWithoutEntitlement(
            productIds: productIds.sorted(), after: cursor, limit: limit)
        return try await read(.rows(statement, Purchase.init(row:)))
    }

    public func backfillEntitlement(_ grant: EntitlementGrant, of purchase: Purchase) async throws -> Entitlement? {
        try await write(LedgerWrites.backfillEntitlement(grant, of: purchase, dialect: dialect, at: now))
    }
}
