import Foundation
import Ledger
import LedgerTestSupport
import Testing

extension EntitlementTests {
    @Test(
        "an update about an earlier period than the one backing the entitlement changes nothing, however late it is signed",
        arguments: StoreKind.allCases)
    func updateAboutAnEarlierPeriod(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("7000", period: 0))
            // The recovered period, reported by the device: dated by its purchase, the
            // failed period's end.
            _ = try await store.deliver(F.renewal("7000", period: 1))
            // Apple's billing failure about period 0, signed before the recovery but
            // after the recovered period's start, arrives now.
            let late = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "7000", transactionId: "7000", state: .gracePeriod,
                until: F.at(days: 30.5), setsUntil: true, signedAt: F.at(days: 30.1),
                reason: "DID_FAIL_TO_RENEW/GRACE_PERIOD")
            guard case .unchanged(let kept) = try await store.updateEntitlement(late) else {
                Issue.record("an update about period 0 must not change the entitlement period 1 backs")
                return
            }
            #expect(kept.transactionId == "7000-1" && kept.state == .active)
            // The renewal intent the customer chose since is kept from it, nothing else.
            var intent = late
            intent.autoRenew = false
            guard case .changed(let turnedOff) = try await store.updateEntitlement(intent) else {
                Issue.record("the renewal intent of an update about an earlier period must apply")
                return
            }
            #expect(turnedOff.transactionId == "7000-1" && turnedOff.state == .active && turnedOff.autoRenew == false)
            #expect(turnedOff.signedAt == kept.signedAt, "the data behind the state is still the report's")
            // About the period backing it, it applies.
            var current = late
            current.transactionId = "7000-1"
            guard case .changed(let changed) = try await store.updateEntitlement(current) else {
                Issue.record("an update about the backing period must apply")
                return
            }
            #expect(changed.state == .gracePeriod)
        }
    }

    @Test(
        "a delivery of an earlier period, however late signed, does not move the entitlement back",
        arguments: StoreKind.allCases)
    func deliveryOfAnEarlierPeriod(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            _ = try await store.deliver(F.renewal("7100", period: 0))
            _ = try await store.deliver(F.renewal("7100", period: 2))
            // Period 1's late notification, signed after period 2's data.
            let late = F.renewal("7100", period: 1, signedAt: F.at(days: 61))
            #expect(try await store.deliver(late).isFirstDelivery, "its purchase is recorded")
            let entitlement = try #require(try await store.entitlement(store: .appStore, originalTransactionId: "7100"))
            #expect(entitlement.transactionId == "7100-2")
            #expect(entitlement.until == F.start.addingTimeInterval(3 * F.month))
        }
    }
}
