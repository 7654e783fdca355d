import Foundation
import PurchaseSDK

/// The entitlements the client last knew, per player, to tell the game when they change
/// (`{"event": "entitlementsChanged", "entitlements": {...}}`).
///
/// The client knows a player's entitlements from the cache when it starts or signs them in
/// (``baseline(_:)``) and from each answer of the server it reads afterwards: an
/// `entitlements` or `restore` call, and the refresh that follows every delivery
/// (``changed(by:)``). An answer older than the last one it took is ignored, so two
/// refreshes finishing out of order never tell an old state again.
actor EntitlementWatch {
    /// What one player's entitlements were when last read.
    private struct Known {
        var entitlements: Set<Fingerprint>
        var fetchedAt: Date?
    }

    /// What matters of one entitlement, dates to the millisecond (the cache keeps
    /// milliseconds, so an entitlement read back from it compares equal to the server's).
    private struct Fingerprint: Hashable {
        var entitlementId: String
        var productId: String
        var state: String
        var entitled: Bool
        var since: Int64
        var until: Int64?
        var autoRenew: Bool?
        var autoRenewProductId: String?
        var ownership: String
        var transactionId: String

        init(_ entitlement: PlayerEntitlement) {
            entitlementId = entitlement.entitlementId
            productId = entitlement.productId
            state = entitlement.state.rawValue
            entitled = entitlement.entitled
            since = Int64((entitlement.since.timeIntervalSince1970 * 1_000).rounded())
            until = entitlement.until.map { Int64(($0.timeIntervalSince1970 * 1_000).rounded()) }
            autoRenew = entitlement.autoRenew
            autoRenewProductId = entitlement.autoRenewProductId
            ownership = entitlement.ownership
            transactionId = entitlement.transactionId
        }
    }

    private var known: [String: Known] = [:]

    /// Takes `snapshot` (the cache, at start or sign-in) as what the client knows of its
    /// player, unless it knows something already.
    func baseline(_ snapshot: EntitlementSnapshot) {
        guard let player = snapshot.playerId, known[player] == nil else { return }
        known[player] = Known(entitlements: Set(snapshot.entitlements.map(Fingerprint.init)), fetchedAt: nil)
    }

    /// Takes `snapshot` and tells whether it changes what the client knew of its player
    /// (nothing known counts as no entitlement). A cached snapshot (the server did not
    /// answer) and one older than the last taken change nothing.
    func changed(by snapshot: EntitlementSnapshot) -> Bool {
        guard let player = snapshot.playerId, !snapshot.isCached else { return false }
        let previous = known[player]
        if let last = previous?.fetchedAt, let fetchedAt = snapshot.fetchedAt, fetchedAt < last { return false }
        let entitlements = Set(snapshot.entitlements.map(Fingerprint.init))
        known[player] = Known(entitlements: entitlements, fetchedAt: snapshot.fetchedAt)
        return entitlements != (previous?.entitlements ?? [])
    }

    /// Posts `{"event": "entitlementsChanged", "entitlements": {...}}` to `queue` when
    /// `snapshot` ``changed(by:)`` what the client knew. Checking and posting in one step keeps
    /// the events in the order the answers were taken.
    func report(_ snapshot: EntitlementSnapshot, to queue: EventQueue) {
        guard changed(by: snapshot) else { return }
        queue.post(ABIJSON.text(ABIJSON.EntitlementsChangedEvent(entitlements: EntitlementsJSON(snapshot))))
    }
}
