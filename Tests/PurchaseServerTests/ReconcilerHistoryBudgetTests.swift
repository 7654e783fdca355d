import AppStoreEmulator
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
    @Test(
        "a pass whose budget is spent stops at the end of a window, says so, and the next pass reads on, also after a restart"
    )
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

        let resume = try await store.checkpoint(Reconciler.resumeCheckpointName).flatMap { Int64($0) }
        #expect(resume.map { same($0, ms(hour)) } == true, "where to read on is in the ledger")

        // A restarted server: a reconciler that remembers nothing of the first, with ten
        // minutes of overlap (which it would read again before the checkpoint).
        let restarted = try await fixture.reconciler(holder: "restarted-instance", overlap: 600) { _ in nil }
        let second = try await restarted.run(now: now)
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
        let store = try await fixture.store

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
        #expect(try await store.checkpoint(Reconciler.resumeCheckpointName) == "", "read to its end: none")

        reconciler.historyBudget = nil
        let next = try await reconciler.run(now: now.addingTimeInterval(60))
        #expect(next.historyComplete)
        #expect(
            same(ms(next.startDate), ms(now) - 3_600_000),
            "after a pass that read to its end, the overlap again")
    }

    @Test("a notification that keeps failing holds the checkpoint, not the passes: they read on, and it is tried again")
    func aFailingNotificationDoesNotHoldThePassesBack() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        // A CONSUMPTION_REQUEST whose answer Apple refuses, for a player who consented.
        let order = try await fixture.order("alice")
        let refused = try #require(try await fixture.pay(token: order.appAccountToken).transactionId)
        let consent = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(consent.status == 200)
        try await fixture.emulator.requestConsumption(transactionId: refused)
        await fixture.emulator.setFaults(
            EmulatorFaults(endpoints: ["sendConsumptionInformation": EndpointFaults(errorRate: 1)]))
        var reconciler = try await fixture.reconciler(holder: "this-instance", overlap: 0) { _ in nil }
        reconciler.historyBudget = 0
        reconciler.historyWindow = HistoryWindow(length: 3_600, targetPages: 1)
        let store = try await fixture.store

        // The passes end three hours from now: the notifications are in the 22nd window of
        // 24 (hours), and two quiet ones follow.
        let end = Date().addingTimeInterval(3 * 3_600)
        var passes = 0
        var failures = 0
        var complete = false
        while !complete, passes < 100 {
            passes += 1
            do {
                complete = try await reconciler.run(now: end).historyComplete
            } catch {
                failures += 1
            }
            // Windows of an hour, whatever the notifications' spacing taught.
            reconciler.historyWindow.record(length: 3_600, pages: 1, spacing: nil)
        }
        #expect(complete && passes == 24, "\(passes) passes")
        #expect(failures == 1, "only the pass that read the refused answer's window failed")
        let held = try #require(try await store.checkpoint(Reconciler.checkpointName).flatMap { Int64($0) })
        #expect(held < ms(end) - 3 * 3_600_000 + 1, "held before that window")
        #expect(try await fixture.emulator.consumptionInformation(refused) == nil)

        await fixture.emulator.setFaults(EmulatorFaults())
        reconciler.historyBudget = nil
        let again = try await reconciler.run(now: end)
        #expect(same(ms(again.startDate), held), "the next pass starts from the checkpoint")
        #expect(try await fixture.emulator.consumptionInformation(refused) != nil, "and answers it")
        #expect(try await store.checkpoint(Reconciler.checkpointName) == String(ms(end)))
    }
}
