/// One chain the entitlement oracle found wrong, and how.
public struct EntitlementViolation: Codable, Hashable, Sendable {
    /// The ways an entitlement can be wrong.
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// Apple entitles the chain at the end, but the player who must hold it is not
        /// entitled in the ledger (no entitlement, or one that does not entitle).
        case notEntitled
        /// The ledger gives the chain to a player other than the one who must hold it.
        case wrongHolder
        /// A paid period that still stands was never entitled to its player in the ledger's
        /// history, through its end.
        case periodNotEntitled
        /// The ledger entitles a player where Apple does not, or past Apple's expiry plus
        /// grace period.
        case entitledPastApple
        /// The ledger entitles a player by a chain Apple never sold.
        case unbacked
    }

    /// How it is wrong.
    public var kind: Kind
    /// The chain's original transaction id.
    public var originalTransactionId: String
    /// The player concerned.
    public var playerId: String?
    /// What the oracle saw.
    public var detail: String
    /// What happened to the chain, in time order: Apple's changes the run made, Apple's
    /// notifications about it, and the ledger's changes (filled in by the run).
    public var history: [String]

    /// Creates a violation.
    public init(kind: Kind, originalTransactionId: String, playerId: String?, detail: String, history: [String] = []) {
        self.kind = kind
        self.originalTransactionId = originalTransactionId
        self.playerId = playerId
        self.detail = detail
        self.history = history
    }
}
