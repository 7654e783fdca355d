extension SQLLedgerStore {
    public func spend(_ request: SpendRequest) async throws -> SpendResult {
        try SpendRules.validate(request)
        return try await write(SpendOperation.spend(request, at: now))
    }

    public func spends(playerId: String, limit: Int) async throws -> [Spend] {
        try await read(.rows(SpendSQL.spends(playerId: playerId, limit: max(limit, 0)), Spend.init(row:)))
    }
}
