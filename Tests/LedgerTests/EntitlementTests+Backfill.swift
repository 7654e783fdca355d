import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension EntitlementTests {
    /// `delivery` as a ledger before migration 6 recorded it: without its entitlement.
    private static func beforeEntitlements(_ delivery: Delivery) -> Delivery {
        var delivery = delivery
        delivery.entitlement = nil
        return delivery
    }

    @Test(
        "purchases delivered before entitlements were kept: each chain's latest one is found, paged, and backfilled once",
        arguments: StoreKind.allCases)
    func backfill(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let products: Set<String> = ["levelpack1", "seasonpass", "vip.monthly"]
            let old = [
                F.levelPack("6000"), F.seasonPass("6100", purchaseDate: F.at(days: 1)),
                F.seasonPass("6101", purchaseDate: F.at(days: 2)), F.renewal("6200", period: 0),
                F.renewal("6200", period: 1),
            ]
            for delivery in old { _ = try await store.deliver(Self.beforeEntitlements(delivery)) }
            _ = try await store.deliver(F.levelPack("6300", player: "bob"))  // kept since its delivery

            let all = try await store.purchasesWithoutEntitlement(productIds: products, after: nil, limit: 10)
            #expect(all.map(\.transactionId) == ["6000", "6100", "6101", "6200-1"], "oldest first, a chain's latest")
            let firstPage = try await store.purchasesWithoutEntitlement(productIds: products, after: nil, limit: 2)
            let secondPage = try await store.purchasesWithoutEntitlement(
                productIds: products, after: firstPage.last, limit: 2)
            #expect((firstPage + secondPage).map(\.transactionId) == all.map(\.transactionId))
            #expect(try await store.purchasesWithoutEntitlement(productIds: [], after: nil, limit: 10).isEmpty)
            #expect(
                try await store.purchasesWithoutEntitlement(productIds: ["levelpack1"], after: nil, limit: 10)
                    .map(\.transactionId) == ["6000"])

            for purchase in all {
                let delivery = try #require(old.first { $0.transactionId == purchase.transactionId })
                let grant = try #require(delivery.entitlement)
                let created = try await store.backfillEntitlement(grant, of: purchase)
                #expect(created?.playerId == "alice" && created?.transactionId == purchase.transactionId)
                #expect(try await store.backfillEntitlement(grant, of: purchase) == nil, "once")
            }
            #expect(try await store.purchasesWithoutEntitlement(productIds: products, after: nil, limit: 10).isEmpty)
            let passes = try await store.entitlements(playerId: "alice").filter { $0.entitlementId == "seasonpass" }
            #expect(passes.map(\.until) == [F.at(days: 91), F.at(days: 181)], "the second pass stacks on the first")
            let changes = try await store.entitlementEvents(playerId: "alice").filter {
                $0.detail["reason"] == "backfill"
            }
            #expect(changes.count == 4)
        }
    }
}
