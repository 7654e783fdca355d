/// What ``LedgerStore/advanceCheckpoint(_:to:holding:)`` did.
public enum CheckpointAdvance: Sendable, Hashable {
    /// The checkpoint moved forward to the value.
    case advanced
    /// The checkpoint was already at or past the value; it stays there.
    case unchanged
    /// The lease is another holder's, or expired: nothing was written.
    case leaseLost
}
