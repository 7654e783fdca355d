/// The ledger's spends: debits of a player's wallet the game asks for, each once per
/// idempotency key, never below zero.
public protocol SpendStore: Sendable {
    /// Debits the request's items from the player's balances in one transaction, with one
    /// ``LedgerEntryKind/spend`` entry per item, a ``HistoryEventType/spend`` event and a
    /// ``SpendMessage`` for the game server's webhook. A request whose key the player used
    /// already changes nothing and answers the recorded spend (`replayed`).
    ///
    /// - Throws: ``LedgerError/invalidSpend(_:)`` for a request outside the rules (nothing
    ///   to spend, an amount below 1, a key or reason too long);
    ///   ``LedgerError/insufficientBalance(item:balance:requested:)`` when an item would go
    ///   below zero; ``LedgerError/idempotencyKeyReused(key:)`` when the key was used for a
    ///   different spend. Each changes nothing.
    func spend(_ request: SpendRequest) async throws -> SpendResult

    /// The player's spends, newest first, at most `limit`.
    func spends(playerId: String, limit: Int) async throws -> [Spend]
}
