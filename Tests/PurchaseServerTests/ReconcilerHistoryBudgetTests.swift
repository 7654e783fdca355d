import Foundation
import Ledger
import Testing

@testable import PurchaseServer

/// A pass reads Apple's history for its budget, then goes on to the rest of its work; the
/// next pass reads on from where it stopped.
@Suite("Reconciler history budget")
struct ReconcilerHistoryBudgetTests {
    /// `date` in whole epoch milliseconds, as the reconciler's requests and checkpoint give it.
    private func ms(_ date: Date) -> Int64 { Reconciler.milliseconds(date) }
    /// Whether two times in milliseconds are the same but for a date's rounding.
    private func same(_ a: Int64, _ b: Int64) -> Bool { abs(a - b) <= 1 }
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
        #expect(same(ms(first.endDate), ms(hour)), "one window: the first hour")
        let checkpoint = try await store.checkpoint(Reconciler.checkpointName).flatMap { Int64($0) }
        #expect(checkpoint.map { same($0, ms(hour)) } == true)
        #expect(try await fixture.wallet("alice").isEmpty, "her notification is in the last hour")

        reconciler.historyBudget = nil
        let second = try await reconciler.run(now: now)
        #expect(second.historyComplete)
        #expect(same(ms(second.startDate), ms(hour)), "from where it stopped")
        #expect(second.endDate == now)
        #expect(second.processed == 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
    }

    @Test("passes that spend their budget within the overlap still move forward: each reads on where the last stopped")
    func passesOutOfBudgetMoveForward() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        // An hour of overlap, windows of an hour that stay an hour (quiet history doubles
        // them otherwise), and no budget: each pass reads one window.
        var reconciler = try await fixture.reconciler(holder: "this-instance", overlap: 3_600) { _ in nil }
        reconciler.historyBudget = 0
        reconciler.historyWindow = HistoryWindow(length: 3_600, targetPages: 1)

        let now = Date()
        var starts: [Date] = []
        var report = try await reconciler.run(now: now)
        starts.append(report.startDate)
        while !report.historyComplete, starts.count < 30 {
            report = try await reconciler.run(now: now)
            starts.append(report.startDate)
        }
        #expect(report.historyComplete, "the day read in \(starts.count) passes")
        #expect(starts.count == 24, "an hour a pass")
        #expect(zip(starts, starts.dropFirst()).allSatisfy { same(ms($1) - ms($0), 3_600_000) }, "\(starts)")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(reconciler.historyWindow.resumeAt == nil)

        reconciler.historyBudget = nil
        let next = try await reconciler.run(now: now.addingTimeInterval(60))
        #expect(next.historyComplete)
        #expect(
            same(ms(next.startDate), ms(now) - 3_600_000),
            "after a pass that read to its end, the overlap again")
    }
}
