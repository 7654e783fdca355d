import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import OrderSimulation
import Testing

/// The entitlement oracle on a real ledger, on both databases: what the ledger writes for a
/// renewed chain passes, and a ledger broken by a direct write (an entitlement left active
/// past Apple's expiry, or extended past it) is caught. Periods last a minute; the first
/// started half a minute ago, and both are delivered at once, so that the judgement does
/// not depend on how fast a loaded machine runs the test.
@Suite struct EntitlementOracleLedgerTests {
    private static let day: TimeInterval = 86_400
    private static let period: TimeInterval = 60

    /// The `period`-th transaction of ann's chain "vip-chain", each a minute, the first
    /// starting at `start`.
    private static func renewal(_ period: Int, start: Date) -> Delivery {
        let purchase = start.addingTimeInterval(Double(period) * Self.period)
        return Delivery(
            store: .appStore,
            transactionId: "vip-chain-\(period)", originalTransactionId: "vip-chain", playerId: "ann",
            productId: "vip.monthly", environment: .sandbox, source: .notification, grants: [:],
            purchaseDate: purchase,
            entitlement: EntitlementGrant(
                entitlementId: "vip", productType: ProductKind.autoRenewable, state: .active, since: start,
                until: purchase.addingTimeInterval(Self.period), autoRenew: true, autoRenewProductId: "vip.monthly",
                ownership: .purchased, signedAt: purchase, reason: period == 0 ? "SUBSCRIBED" : "DID_RENEW"))
    }

    private static func periods(start: Date) -> [PaidPeriod] {
        (0...1).map {
            let delivery = renewal($0, start: start)
            return PaidPeriod(
                transactionId: delivery.transactionId, originalTransactionId: "vip-chain", productId: "vip.monthly",
                purchaseDate: delivery.purchaseDate, expiresDate: delivery.entitlement?.until, standing: true,
                holders: ["ann"])
        }
    }

    private static func judge(_ store: any LedgerStore, apple: AppleEntitlement, start: Date, now: Date)
        async throws -> EntitlementVerdict
    {
        // The first period is delivered half a minute after it started: a 45 s lag bound
        // covers that; the per-period coverage is tested on exact histories in
        // EntitlementOracleTests.
        EntitlementOracle(tolerance: 0.01, lagBound: 45).judge(
            periods: periods(start: start), apple: [apple], ledger: try await store.entitlements(playerId: "ann"),
            history: try await store.timeline(playerId: "ann").compactMap(EntitlementChange.init), at: now)
    }

    @Test(arguments: StoreKind.allCases) func aRenewedChainPassesAndABrokenLedgerIsCaught(kind: StoreKind) async throws
    {
        try await withStore(kind) { store, _ in
            let start = Date().addingTimeInterval(-Self.period / 2)
            _ = try await store.deliver(Self.renewal(0, start: start))
            _ = try await store.deliver(Self.renewal(1, start: start))
            let now = Date()
            let appleEnd = start.addingTimeInterval(2 * Self.period)
            let active = AppleEntitlement(
                originalTransactionId: "vip-chain", status: "active", entitles: true, entitledUntil: appleEnd)
            let followed = try await Self.judge(store, apple: active, start: start, now: now)
            #expect(followed.holds, "\(followed.violations)")
            #expect(followed.entitledByLedger == 1)

            // Apple expired the chain; the ledger never heard and keeps it active.
            let expired = AppleEntitlement(
                originalTransactionId: "vip-chain", status: "expired", entitles: false, entitledUntil: nil)
            let leftActive = try await Self.judge(store, apple: expired, start: start, now: now)
            #expect(leftActive.violations.map(\.kind) == [.entitledPastApple])

            // A direct write extends the entitlement past Apple's expiry.
            let extended = try await store.updateEntitlement(
                EntitlementUpdate(
                    store: .appStore,
                    originalTransactionId: "vip-chain", state: .active,
                    until: appleEnd.addingTimeInterval(30 * Self.day),
                    setsUntil: true, signedAt: appleEnd, reason: "test: broken ledger"))
            guard case .changed = extended else {
                Issue.record("the direct write changed nothing: \(extended)")
                return
            }
            let tooLong = try await Self.judge(store, apple: active, start: start, now: now)
            #expect(tooLong.violations.map(\.kind) == [.entitledPastApple])
            #expect(tooLong.violations.first?.playerId == "ann")
        }
    }
}
