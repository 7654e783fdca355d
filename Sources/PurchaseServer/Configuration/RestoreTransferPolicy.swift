/// What a restore does with an entitlement another player holds: the answer to "a second
/// game account on the same Apple ID restores" (`POST /v1/purchases/restore`).
public enum RestoreTransferPolicy: String, Codable, Hashable, Sendable, CaseIterable {
    /// The first player who received it keeps it; the restoring player is told
    /// `kept_by_other_player`. The default.
    case keepWithFirst = "keep_with_first"
    /// The restoring player receives it, with an audited `entitlement_transferred` event on
    /// both players' timelines; the previous holder loses it.
    case transferToLatest = "transfer_to_latest"
    /// The restore is refused (`refused`, code `restore_refused`); support can still move it.
    case refuse
}
