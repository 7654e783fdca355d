import Foundation
import Ledger
import Testing

@testable import PurchaseServer

/// A pass reads Apple's history for its budget, then goes on to the rest of its work; the
/// next pass reads on from where it stopped.
@Suite("Reconciler history budget")
struct ReconcilerHistoryBudgetTests {
    @Test("a pass whose budget is spent stops at the end of a window, says so, and the next pass reads on")
    func aSpentBudgetStopsAtAWindowsEnd() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        var reconciler = try await fixture.reconciler(holder: "this-instance", overlap: 0) { _ in nil }
        reconciler.historyBudget = 0
        let store = try await fixture.store

        let now = Date()
        let first = try await reconciler.run(now: now)
        #expect(!first.historyComplete)
        let hour = first.startDate.addingTimeInterval(HistoryWindow.initial)
        #expect(Reconciler.milliseconds(first.endDate) == Reconciler.milliseconds(hour), "one window: the first hour")
        #expect(try await store.checkpoint(Reconciler.checkpointName) == String(Reconciler.milliseconds(hour)))
        #expect(try await fixture.wallet("alice").isEmpty, "her notification is in the last hour")

        reconciler.historyBudget = nil
        let second = try await reconciler.run(now: now)
        #expect(second.historyComplete)
        #expect(Reconciler.milliseconds(second.startDate) == Reconciler.milliseconds(hour), "from where it stopped")
        #expect(second.endDate == now)
        #expect(second.processed == 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }
}
