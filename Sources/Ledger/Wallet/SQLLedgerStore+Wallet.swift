import Foundation

extension SQLLedgerStore {
    public func wallet(playerId: String) async throws -> [String: Int64] {
        let balances = try await read(
            .rows(LedgerSQL.balances(playerId: playerId)) {
                (try $0.requiredText("item"), try $0.requiredInteger("amount"))
            }
        )
        return Dictionary(balances, uniquingKeysWith: { first, _ in first })
    }

    public func ledgerEntries(playerId: String) async throws -> [LedgerEntry] {
        try await read(.rows(LedgerSQL.entries(playerId: playerId), LedgerEntry.init(row:)))
    }

    public func grantManually(playerId: String, grants: Grants, reason: String, actor: String, via: String?)
        async throws -> LedgerPosting
    {
        try LedgerRules.validateManualGrants(grants)
        return try await write(
            LedgerWrites.grantManually(
                playerId: playerId, grants: grants, reason: reason, actor: actor, via: via, at: now)
        )
    }

}
