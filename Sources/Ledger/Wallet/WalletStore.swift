import Foundation

/// The ledger's wallets: balances, the entries that moved them, and support's manual
/// grants.
public protocol WalletStore: Sendable {
    /// Support compensation: appends ``LedgerEntryKind/manual`` entries (amounts non-zero,
    /// either sign), updates the balances and appends an audited
    /// ``HistoryEventType/manualGrant`` event naming the actor, the reason and, when given,
    /// the path the grant came by (`via`, e.g. ``ManualGrantPath/adminAPI``).
    func grantManually(playerId: String, grants: Grants, reason: String, actor: String, via: String?) async throws
        -> LedgerPosting

    /// The player's balances, item → amount (items never touched are absent).
    func wallet(playerId: String) async throws -> [String: Int64]

    /// The player's ledger entries, oldest first.
    func ledgerEntries(playerId: String) async throws -> [LedgerEntry]
}

extension WalletStore {
    /// ``grantManually(playerId:grants:reason:actor:via:)`` naming no path (the support
    /// console's grants, audited in the console's own log).
    public func grantManually(playerId: String, grants: Grants, reason: String, actor: String) async throws
        -> LedgerPosting
    {
        try await grantManually(playerId: playerId, grants: grants, reason: reason, actor: actor, via: nil)
    }
}
