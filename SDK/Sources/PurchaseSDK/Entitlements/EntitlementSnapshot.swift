import Foundation

/// The signed-in player's entitlements as ``PurchasePipeline/entitlements(refresh:)``
/// answers them: fresh from the server, or from the cache when the server cannot be asked.
public struct EntitlementSnapshot: Hashable, Sendable {
    /// Whose entitlements; `nil` when no player is signed in (the snapshot is then empty).
    public var playerId: String?
    /// The entitlements, entitling or not. From the cache, each stands as at the moment the
    /// snapshot was served (``PlayerEntitlement/isEntitled(at:)``).
    public var entitlements: [PlayerEntitlement]
    /// Whether it came from the cache rather than from the server just now.
    public var isCached: Bool
    /// When the device received the server's answer it holds; `nil` when the server never
    /// answered for this player on this device (the snapshot is then empty).
    public var fetchedAt: Date?
    /// Why the server's answer was not used (`network_error`, `http_503`, …), when a
    /// refresh was asked for and failed; `nil` otherwise.
    public var refreshFailure: String?

    /// Creates a snapshot.
    public init(
        playerId: String?, entitlements: [PlayerEntitlement], isCached: Bool, fetchedAt: Date?,
        refreshFailure: String? = nil
    ) {
        self.playerId = playerId
        self.entitlements = entitlements
        self.isCached = isCached
        self.fetchedAt = fetchedAt
        self.refreshFailure = refreshFailure
    }

    /// Whether some entitlement with this id entitles the player.
    public func isEntitled(to entitlementId: String) -> Bool {
        entitlements.contains { $0.entitlementId == entitlementId && $0.entitled }
    }

    /// The ids of the entitlements that entitle the player.
    public var entitledIds: Set<String> {
        Set(entitlements.filter(\.entitled).map(\.entitlementId))
    }
}
