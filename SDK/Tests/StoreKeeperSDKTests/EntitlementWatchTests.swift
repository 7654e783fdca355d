import Foundation
import PurchaseSDK
import Testing

@testable import StoreKeeperSDK

/// When the client tells `entitlementsChanged`: a fresh answer that differs from what it
/// knew of the player, never the cache, never an answer older than the last one taken.
@Suite struct EntitlementWatchTests {
    private static let since = Date(timeIntervalSince1970: 1_790_000_000.123_456)

    private static func pack(_ id: String = "levelpack1", since: Date = since) -> PlayerEntitlement {
        PlayerEntitlement(
            entitlementId: id, productId: id, state: .active, entitled: true, since: since, until: nil,
            transactionId: "2000000000000001", originalTransactionId: "2000000000000001", environment: "Sandbox")
    }

    private static func snapshot(
        _ entitlements: [PlayerEntitlement], player: String? = "p1", cached: Bool = false, at seconds: Double = 10
    ) -> EntitlementSnapshot {
        EntitlementSnapshot(
            playerId: player, entitlements: entitlements, isCached: cached,
            fetchedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test("a fresh answer that differs is a change; the same answer again is none")
    func changes() async {
        let watch = EntitlementWatch()
        #expect(await watch.changed(by: Self.snapshot([])) == false)
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], at: 11)))
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], at: 12)) == false)
        #expect(await watch.changed(by: Self.snapshot([], at: 13)))
    }

    @Test("the cache at start is the baseline, even read back to the millisecond")
    func baselineFromTheCache() async {
        let watch = EntitlementWatch()
        let fromCache = Self.pack(since: Date(timeIntervalSince1970: 1_790_000_000.123))
        await watch.baseline(Self.snapshot([fromCache], cached: true))
        #expect(await watch.changed(by: Self.snapshot([Self.pack()])) == false)
        // A second baseline does not replace what the server answered.
        await watch.baseline(Self.snapshot([], cached: true))
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], at: 11)) == false)
    }

    @Test("cached snapshots, snapshots without a player and older answers change nothing")
    func ignored() async {
        let watch = EntitlementWatch()
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], cached: true)) == false)
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], player: nil)) == false)
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], at: 20)))
        #expect(await watch.changed(by: Self.snapshot([], at: 19)) == false)
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], at: 21)) == false)
    }

    @Test("each player is known apart")
    func perPlayer() async {
        let watch = EntitlementWatch()
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], player: "p1")))
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], player: "p2")))
        #expect(await watch.changed(by: Self.snapshot([Self.pack()], player: "p1", at: 11)) == false)
    }
}
