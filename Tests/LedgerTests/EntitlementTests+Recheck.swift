import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension EntitlementTests {
    @Test(
        "a postponed lapsed subscription leaves the work list until its recheck, the wait doubles, a change starts over",
        arguments: StoreKind.allCases)
    func postponedSubscriptionChecks(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("a", period: 0))  // ends day 30
            _ = try await store.deliver(F.renewal("b", period: 0, player: "bob"))
            let now = F.at(days: 100)
            func lapsed(at date: Date) async throws -> [String] {
                try await store.lapsedSubscriptions(before: date, limit: 10).map(\.originalTransactionId)
            }
            #expect(try await lapsed(at: now) == ["a", "b"])

            let first = try await store.postponeSubscriptionCheck(
                store: .appStore, originalTransactionId: "a", now: now)
            #expect(first == now.addingTimeInterval(60))
            #expect(try await lapsed(at: now) == ["b"], "the chain Apple did not settle no longer holds the head")
            #expect(try await lapsed(at: now.addingTimeInterval(60)) == ["a", "b"])
            let second = try await store.postponeSubscriptionCheck(
                store: .appStore, originalTransactionId: "a", now: now)
            #expect(second == now.addingTimeInterval(120), "the wait doubles")
            for _ in 0..<20 {
                try await store.postponeSubscriptionCheck(store: .appStore, originalTransactionId: "a", now: now)
            }
            let longest = try await store.postponeSubscriptionCheck(
                store: .appStore, originalTransactionId: "a", now: now)
            #expect(longest == now.addingTimeInterval(86_400), "at most a day")

            // Any change of the entitlement starts over.
            _ = try await store.updateEntitlement(
                EntitlementUpdate(
                    store: .appStore,
                    originalTransactionId: "a", state: .gracePeriod, until: F.at(days: 46), setsUntil: true,
                    signedAt: F.at(days: 30), reason: "DID_FAIL_TO_RENEW/GRACE_PERIOD"))
            #expect(try await lapsed(at: now) == ["b", "a"], "a is lapsed again, with its new end")
            #expect(
                try await store.postponeSubscriptionCheck(store: .appStore, originalTransactionId: "a", now: now)
                    == now.addingTimeInterval(60))
            #expect(
                try await store.postponeSubscriptionCheck(store: .appStore, originalTransactionId: "nothing", now: now)
                    == nil)
            #expect(
                try await store.postponeSubscriptionCheck(
                    store: .appStore, originalTransactionId: "a", now: F.at(days: 40)) == nil,
                "not lapsed then (its grace runs to day 46): nothing postponed")
        }
    }
}
