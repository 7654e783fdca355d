import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// A change of an entitlement reads its row and writes its decision in one transaction,
/// under the row's lock (PostgreSQL `FOR UPDATE`; SQLite's single writer): each test pauses
/// one ledger instance right after it read the row, lets a second instance on the same
/// database make the same change at exactly that moment, and checks that the intruder had
/// to wait and that the change happened once.
///
/// Without the row lock on PostgreSQL, the intruder of an update or a transfer reads the row
/// as it was and runs to its end inside the window: the update is recorded twice, the
/// transfer acts on a stale row and the update overwrites it. (A renewal's two deliveries
/// are decided first by the purchase's key: the second waits for the first's insert.)
@Suite
struct EntitlementRaceTests {
    typealias F = EntitlementFixture

    @Test("two instances applying one update at once change the entitlement once", arguments: StoreKind.allCases)
    func concurrentUpdates(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .entitlementRead(originalTransactionId: "8000")) {
            paused, intruder, interleaving in
            _ = try await intruder.deliver(F.renewal("8000", period: 0))
            let update = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "8000", state: .gracePeriod, until: F.at(days: 46), setsUntil: true,
                signedAt: F.at(days: 30), reason: "DID_FAIL_TO_RENEW/GRACE_PERIOD")
            interleaving.intrude {
                let result = try await intruder.updateEntitlement(update)
                guard case .unchanged(let entitlement) = result else {
                    Issue.record("the second update must find the first one's change, got \(result)")
                    return
                }
                #expect(entitlement.state == .gracePeriod)
            }
            guard case .changed = try await paused.updateEntitlement(update) else {
                Issue.record("the update read first must change the entitlement")
                return
            }
            try await Self.expectOneChange(paused, interleaving, "8000", state: .gracePeriod)
        }
    }

    @Test("a renewal delivered by two instances at once changes the entitlement once", arguments: StoreKind.allCases)
    func concurrentRenewalDeliveries(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .entitlementRead(originalTransactionId: "9000")) {
            paused, intruder, interleaving in
            _ = try await intruder.deliver(F.renewal("9000", period: 0))
            let renewal = F.renewal("9000", period: 1)
            interleaving.intrude {
                // The device's report of the renewal the notification is delivering.
                var report = renewal
                report.source = .clientSignedTransaction
                let result = try await intruder.deliver(report)
                #expect(result.isFirstDelivery == false)
            }
            #expect(try await paused.deliver(renewal).isFirstDelivery)
            try await Self.expectOneChange(paused, interleaving, "9000", state: .active)
            #expect(
                try await paused.entitlement(store: .appStore, originalTransactionId: "9000")?.transactionId == "9000-1"
            )
        }
    }

    @Test("a transfer racing an update: both apply, one after the other", arguments: StoreKind.allCases)
    func transferDuringUpdate(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .entitlementRead(originalTransactionId: "9100")) {
            paused, intruder, interleaving in
            _ = try await intruder.deliver(F.renewal("9100", period: 0))
            interleaving.intrude {
                let result = try await intruder.transferEntitlement(
                    store: .appStore, originalTransactionId: "9100", to: "bob", reason: "restore", actor: nil)
                guard case .transferred(let from, let moved) = result else {
                    Issue.record("expected a transfer, got \(result)")
                    return
                }
                #expect(from == "alice")
                #expect(moved.state == .expired, "the transfer read the update's change")
            }
            let expiry = EntitlementUpdate(
                store: .appStore,
                originalTransactionId: "9100", state: .expired, signedAt: F.at(days: 31), reason: "EXPIRED")
            guard case .changed(let expired) = try await paused.updateEntitlement(expiry) else {
                Issue.record("the update must change the entitlement")
                return
            }
            #expect(expired.playerId == "alice")
            try await interleaving.intruderResult()
            #expect(interleaving.intrusion == .waited, "the intruder must wait for the paused transaction")
            let end = try #require(try await paused.entitlement(store: .appStore, originalTransactionId: "9100"))
            #expect(end.playerId == "bob")
            #expect(end.state == .expired)
        }
    }

    @Test("two season passes delivered at once stack one after the other", arguments: StoreKind.allCases)
    func concurrentStackedPeriods(kind: StoreKind) async throws {
        let checkpoint = LedgerPausePoint.entitlementStackRead(playerId: "alice", entitlementId: "seasonpass")
        try await withInterleavedStores(kind, at: checkpoint) { paused, intruder, interleaving in
            interleaving.intrude {
                let result = try await intruder.deliver(F.seasonPass("s2", purchaseDate: F.at(days: 1)))
                #expect(result.isFirstDelivery)
            }
            #expect(try await paused.deliver(F.seasonPass("s1", purchaseDate: F.start)).isFirstDelivery)
            try await interleaving.intruderResult()
            #expect(interleaving.intrusion == .waited, "the intruder must wait for the paused transaction")
            let period: TimeInterval = 90 * F.day
            #expect(
                try await paused.entitlement(store: .appStore, originalTransactionId: "s1")?.until
                    == F.start.addingTimeInterval(period))
            #expect(
                try await paused.entitlement(store: .appStore, originalTransactionId: "s2")?.until
                    == F.start.addingTimeInterval(2 * period), "the second pass starts when the first ends")
        }
    }

    @Test(
        "a chain's first two transactions delivered at once: one entitlement, the newer data wins",
        arguments: StoreKind.allCases)
    func concurrentFirstDeliveriesOfOneChain(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .entitlementRead(originalTransactionId: "9200")) {
            paused, intruder, interleaving in
            // The renewal is delivered while the first purchase's delivery found no
            // entitlement (PostgreSQL: nothing to lock yet, so its insert conflicts later).
            interleaving.intrude {
                let result = try await intruder.deliver(F.renewal("9200", period: 1))
                #expect(result.isFirstDelivery)
            }
            #expect(try await paused.deliver(F.renewal("9200", period: 0)).isFirstDelivery)
            try await interleaving.intruderResult()
            let end = try #require(try await paused.entitlement(store: .appStore, originalTransactionId: "9200"))
            #expect(end.transactionId == "9200-1")
            #expect(end.until == F.start.addingTimeInterval(2 * F.month))
            #expect(end.since == F.start)
            let events = try await paused.entitlementEvents(playerId: "alice")
            #expect(events.last?.transactionId == "9200-1", "the last change is the renewal's")
        }
    }

    @Test(
        "two players' first deliveries of one chain, each bound with no holder: one gets it, the other is refused whole",
        arguments: StoreKind.allCases)
    func concurrentFirstDeliveriesBoundToNobody(kind: StoreKind) async throws {
        try await withInterleavedStores(kind, at: .entitlementRead(originalTransactionId: "9300")) {
            paused, intruder, interleaving in
            // PostgreSQL: the paused delivery found no row to lock; bob's commits meanwhile.
            // SQLite: bob's waits for the paused one's writer lock, then finds alice's row.
            var alice = F.renewal("9300", period: 0, player: "alice")
            alice.boundByHolder = .nobody
            let bob = {
                var delivery = F.renewal("9300", period: 1, player: "bob")
                delivery.boundByHolder = .nobody
                return delivery
            }()
            let bobsResult = ResultBox()
            interleaving.intrude {
                do {
                    _ = try await intruder.deliver(bob)
                    await bobsResult.set("delivered")
                } catch LedgerError.chainHolderChanged {
                    await bobsResult.set("holder changed")
                }
            }
            var alicesResult = "delivered"
            do { _ = try await paused.deliver(alice) } catch LedgerError.chainHolderChanged {
                alicesResult = "holder changed"
            }
            try await interleaving.intruderResult()
            let results = [alicesResult, await bobsResult.value]
            #expect(results.sorted() == ["delivered", "holder changed"], "\(results)")
            let holder = try #require(try await paused.entitlement(store: .appStore, originalTransactionId: "9300"))
                .playerId
            let winner = alicesResult == "delivered" ? "alice" : "bob"
            #expect(holder == winner, "the chain is the delivered player's")
            let loser = winner == "alice" ? "9300-1" : "9300"
            #expect(
                try await paused.purchase(store: .appStore, transactionId: loser) == nil,
                "the refused delivery wrote nothing")
        }
    }

    /// One result an intruder reports.
    actor ResultBox {
        var value = ""
        func set(_ result: String) { value = result }
    }

    /// Waits for the intruder, checks that it waited for the paused transaction and that the
    /// entitlement changed once after its insert, ending in `state`.
    static func expectOneChange(
        _ store: any LedgerStore, _ interleaving: Interleaving, _ originalTransactionId: String,
        state: EntitlementState
    ) async throws {
        try await interleaving.intruderResult()
        #expect(interleaving.intrusion == .waited, "the intruder must wait for the paused transaction")
        let events = try await store.entitlementEvents(playerId: "alice").filter {
            $0.detail["originalTransactionId"] == originalTransactionId
        }
        #expect(events.count == 2, "the insert and one change: \(events.map(\.detail))")
        #expect(
            try await store.entitlement(store: .appStore, originalTransactionId: originalTransactionId)?.state == state)
    }
}
