import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import OrderSimulation
import Testing

/// The entitlement oracle on a real ledger, on both databases: what the ledger writes for a
/// renewed chain passes, and a ledger broken by a direct write (an entitlement left active
/// past Apple's expiry, or extended past it) is caught.
@Suite struct EntitlementOracleLedgerTests {
    private static let day: TimeInterval = 86_400

    /// The `period`-th transaction of ann's chain "vip-chain", each 30 days, the first 40
    /// days before `now`.
    private static func renewal(_ period: Int, now: Date) -> Delivery {
        let start = now.addingTimeInterval(-40 * day)
        let purchase = start.addingTimeInterval(Double(period) * 30 * day)
        return Delivery(
            transactionId: "vip-chain-\(period)", originalTransactionId: "vip-chain", playerId: "ann",
            productId: "vip.monthly", environment: .sandbox, source: .notification, grants: [:],
            purchaseDate: purchase,
            entitlement: EntitlementGrant(
                entitlementId: "vip", productType: ProductType.autoRenewable.rawValue, state: .active, since: start,
                until: purchase.addingTimeInterval(30 * day), autoRenew: true, autoRenewProductId: "vip.monthly",
                ownership: "PURCHASED", appleSignedAt: purchase, reason: period == 0 ? "SUBSCRIBED" : "DID_RENEW"))
    }

    private static func periods(now: Date) -> [PaidPeriod] {
        (0...1).map {
            let delivery = renewal($0, now: now)
            return PaidPeriod(
                transactionId: delivery.transactionId, originalTransactionId: "vip-chain", productId: "vip.monthly",
                purchaseDate: delivery.purchaseDate, expiresDate: delivery.entitlement?.until, standing: true,
                holders: ["ann"])
        }
    }

    private static func judge(_ store: any LedgerStore, apple: AppleEntitlement, now: Date) async throws
        -> EntitlementVerdict
    {
        EntitlementOracle().judge(
            periods: periods(now: now), apple: [apple], ledger: try await store.entitlements(playerId: "ann"),
            history: try await store.timeline(playerId: "ann").compactMap(EntitlementChange.init), at: now)
    }

    @Test(arguments: StoreKind.allCases) func aRenewedChainPassesAndABrokenLedgerIsCaught(kind: StoreKind) async throws
    {
        try await withStore(kind) { store, _ in
            let now = Date()
            for period in 0...1 { _ = try await store.deliver(Self.renewal(period, now: now)) }
            let appleEnd = now.addingTimeInterval(20 * Self.day)
            let active = AppleEntitlement(
                originalTransactionId: "vip-chain", status: "active", entitles: true, entitledUntil: appleEnd)
            let followed = try await Self.judge(store, apple: active, now: now)
            #expect(followed.holds, "\(followed.violations)")
            #expect(followed.entitledByLedger == 1)

            // Apple expired the chain; the ledger never heard and keeps it active.
            let expired = AppleEntitlement(
                originalTransactionId: "vip-chain", status: "expired", entitles: false, entitledUntil: nil)
            let leftActive = try await Self.judge(store, apple: expired, now: now)
            #expect(leftActive.violations.map(\.kind) == [.entitledPastApple])

            // A direct write extends the entitlement past Apple's expiry.
            let extended = try await store.updateEntitlement(
                EntitlementUpdate(
                    originalTransactionId: "vip-chain", state: .active,
                    until: appleEnd.addingTimeInterval(30 * Self.day),
                    setsUntil: true, appleSignedAt: now, reason: "test: broken ledger"))
            guard case .changed = extended else {
                Issue.record("the direct write changed nothing: \(extended)")
                return
            }
            let tooLong = try await Self.judge(store, apple: active, now: now)
            #expect(tooLong.violations.map(\.kind) == [.entitledPastApple])
            #expect(tooLong.violations.first?.playerId == "ann")
        }
    }
}
