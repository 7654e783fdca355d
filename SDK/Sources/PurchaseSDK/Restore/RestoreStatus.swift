/// The server's verdict on one restored transaction (`POST /v1/purchases/restore`), with
/// its raw values. A value this SDK does not know is kept as it came.
public struct RestoreStatus: RawRepresentable, Codable, Hashable, Sendable {
    /// The server's value.
    public var rawValue: String

    /// The status with this raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Delivered now to this player.
    public static let restored = RestoreStatus(rawValue: "restored")
    /// This player held it already: nothing granted again.
    public static let alreadyOwned = RestoreStatus(rawValue: "already_owned")
    /// Moved from the player who held it to this one (transfer policy `transfer_to_latest`).
    public static let transferred = RestoreStatus(rawValue: "transferred")
    /// Another player holds it and keeps it (transfer policy `keep_with_first`).
    public static let keptByOtherPlayer = RestoreStatus(rawValue: "kept_by_other_player")
    /// Another player holds it and the policy refuses restores (`refuse`, code `restore_refused`).
    public static let refused = RestoreStatus(rawValue: "refused")
    /// A consumable: never granted again by a restore.
    public static let notRestorable = RestoreStatus(rawValue: "not_restorable")
    /// Refused by verification or delivery; ``RestoredTransaction/code`` says why.
    public static let rejected = RestoreStatus(rawValue: "rejected")

    /// Whether the server holds the transaction as delivered, to this player or to the one
    /// it stays with, so the store may stop listing it: restored, already owned,
    /// transferred, kept by another player, or refused by the policy. Other verdicts leave an
    /// unfinished transaction to the purchase path, which reports it like a purchase. Not
    /// the same as delivered to this player: see ``isDeliveredToPlayer``.
    public var isDeliveredOnServer: Bool {
        [.restored, .alreadyOwned, .transferred, .keptByOtherPlayer, .refused].contains(self)
    }

    /// Whether the restoring player holds the transaction's goods now: restored, already
    /// owned, or transferred. Only these count as delivered to this player; a transaction
    /// another player keeps (kept by another player, refused) is finished by
    /// ``PurchasePipeline/restore()`` as ``PurchaseState/failed(reason:)`` with the status
    /// as the reason, never as delivered.
    public var isDeliveredToPlayer: Bool {
        [.restored, .alreadyOwned, .transferred].contains(self)
    }
}
