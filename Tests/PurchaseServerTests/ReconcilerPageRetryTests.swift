import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Synchronization
import Testing

@testable import PurchaseServer

/// A page of Apple's notification history that fails with a transient error is asked for
/// again, so one error does not throw a whole pass away; a page that keeps failing ends the
/// pass, and the checkpoint keeps the windows of history read before it.
@Suite("Reconciler page retries")
struct ReconcilerPageRetryTests {
    @Test("a history page answered 503 twice is asked for again and the pass completes")
    func transientErrorsAreRetried() async throws {
        let history = HistoryRequests(failing: 2)
        try await withReconciler(history) { fixture, reconciler, store in
            let report = try await reconciler.run()
            let first = try #require(history.windows.first)
            #expect(history.windows.prefix(3).allSatisfy { $0 == first }, "two 503s, then the page again")
            #expect(history.windows.dropFirst(3).allSatisfy { $0 != first })
            #expect(report.processed >= 1)
            #expect(try await fixture.wallet("alice") == ["coins": 100])
            #expect(try await store.checkpoint(Reconciler.checkpointName) != nil)
        }
    }

    @Test("a history page that keeps failing ends the pass after four attempts, checkpoint unmoved")
    func persistentErrorsEndThePass() async throws {
        let history = HistoryRequests(failing: .max)
        try await withReconciler(history) { fixture, reconciler, store in
            var failure: (any Error)?
            do {
                _ = try await reconciler.run()
            } catch {
                failure = error
            }
            #expect(failure is AppStoreServerAPIError, "\(String(describing: failure))")
            #expect(history.count == Reconciler.pageAttempts)
            let wallet = try await fixture.wallet("alice")
            let checkpoint = try await store.checkpoint(Reconciler.checkpointName)
            #expect(wallet.isEmpty)
            #expect(checkpoint == nil)
        }
    }

    @Test("a notification that fails to process does not stop the pass: the rest of the history is processed")
    func failingNotificationDoesNotStopThePass() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        // In Apple's history: alice's charge, a CONSUMPTION_REQUEST whose answer Apple
        // refuses, then bob's charge. Alice consented: the server answers for her.
        let before = Date()
        let first = try await fixture.order("alice")
        let refused = try #require(try await fixture.pay(token: first.appAccountToken).transactionId)
        let consent = try await fixture.send(
            .put, "/v1/players/me/consumption-consent", credential: fixture.token("alice"))
        #expect(consent.status == 200)
        try await fixture.emulator.requestConsumption(transactionId: refused)
        let second = try await fixture.order("bob")
        _ = try await fixture.pay(token: second.appAccountToken)
        await fixture.emulator.setFaults(
            EmulatorFaults(endpoints: ["sendConsumptionInformation": EndpointFaults(errorRate: 1)]))
        let reconciler = try await fixture.reconciler(holder: "this-instance") { _ in nil }

        var failure: (any Error)?
        do {
            _ = try await reconciler.run()
        } catch {
            failure = error
        }
        #expect(failure is AppStoreServerAPIError, "the consumption answer's failure ends the pass")
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        #expect(try await fixture.wallet("bob") == ["coins": 100], "the history after the failure was processed")
        let store = try await fixture.store
        let checkpoint = try await store.checkpoint(Reconciler.checkpointName).flatMap { Int64($0) }
        #expect(
            checkpoint.map { $0 <= Reconciler.milliseconds(before) } ?? true,
            "the checkpoint stays before the failed notification's window, for the next pass to read it again")

        await fixture.emulator.setFaults(EmulatorFaults())
        _ = try await reconciler.run()
        #expect(try await fixture.emulator.consumptionInformation(refused) != nil, "answered by the next pass")
        #expect(try await store.checkpoint(Reconciler.checkpointName) != nil)
    }

    @Test(
        "a page that fails for good loses its window only: the windows before it stay read and the next pass starts after them"
    )
    func failedWindowKeepsTheWindowsBefore() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let paid = Reconciler.milliseconds(Date())
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        // The day's history is read in windows of 1, 2, 4, 8 and 9 hours; alice's charge is
        // in the last, which Apple fails to serve until told otherwise.
        let history = HistoryRequests(failing: 0)
        let outage = Mutex(true)
        let reconciler = try await fixture.reconciler(holder: "this-instance", overlap: 0) { request in
            let window = history.record(request)
            return outage.withLock { $0 } && window.end > paid ? HTTPResponseData(status: 503) : nil
        }
        let store = try await fixture.store

        await #expect(throws: AppStoreServerAPIError.self) { _ = try await reconciler.run() }
        let read = history.windows
        let failed = try #require(read.last)
        #expect(read.suffix(Reconciler.pageAttempts).allSatisfy { $0 == failed }, "the failed page, four times")
        let before = Array(read.dropLast(Reconciler.pageAttempts))
        #expect(before.count == 4, "\(read)")
        #expect(zip(before, before.dropFirst() + [failed]).allSatisfy { $0.end == $1.start }, "windows end to end")
        #expect(before.allSatisfy { $0.end <= paid })
        #expect(try await fixture.wallet("alice").isEmpty)
        #expect(try await store.checkpoint(Reconciler.checkpointName) == String(failed.start))

        outage.withLock { $0 = false }
        let report = try await reconciler.run()
        #expect(history.windows.dropFirst(read.count).first?.start == failed.start, "from the window that failed")
        #expect(report.processed == 1)
        #expect(try await fixture.wallet("alice") == ["coins": 100])
        let checkpoint = try #require(try await store.checkpoint(Reconciler.checkpointName).flatMap { Int64($0) })
        #expect(checkpoint > paid)
    }

    @Test("the next window holds the target's pages at the spacing of the last page read, or follows the page count")
    func windowsFollowTheHistorysDensity() {
        let window = HistoryWindow(length: 3_600, targetPages: 50)
        #expect(window.length == 3_600)
        window.record(length: 3_600, pages: 60, spacing: 0.01)
        #expect(window.length == 10, "notifications 10 ms apart: 1,000 in 10 s")
        window.record(length: 10, pages: 1, spacing: 60)
        #expect(window.length == 20, "twice as long at most")
        window.record(length: 80, pages: 400, spacing: nil)
        #expect(window.length == 10, "400 pages in 80 s: 50 pages in 10 s")
        window.record(length: 20, pages: 0, spacing: nil)
        #expect(window.length == 40)
        window.record(length: 40, pages: 3, spacing: nil, failed: true)
        #expect(window.length == 40, "a failed window without dates teaches nothing")
        window.record(length: 40, pages: 3, spacing: 0.002, failed: true)
        #expect(window.length == 2, "one with dates does")
        window.record(length: 2, pages: 10_000, spacing: nil)
        #expect(window.length == HistoryWindow.shortest)
        window.record(length: HistoryWindow.longest, pages: 1, spacing: nil)
        #expect(window.length == HistoryWindow.longest)
        #expect(HistoryWindow(length: .nan).length == HistoryWindow.longest)

        #expect(HistoryWindow.spacing(of: [1_000, 3_000, 2_000]) == 1)
        #expect(HistoryWindow.spacing(of: [7, 7, 7]) == 0.0005, "a millisecond over two gaps at least")
        #expect(HistoryWindow.spacing(of: [5]) == nil)
        #expect(HistoryWindow.spacing(of: [.min, .max]) != nil)
    }

    @Test(
        "a window that fails in a dense stretch is learnt from: the next pass starts with a short window and completes"
    )
    func aFailedDenseWindowShortensTheNext() async throws {
        let fixture = try await busyFixture()
        defer { Task { await fixture.shutdown() } }
        // The day before the payments is quiet; their window, three pages, fails on its
        // second page until told otherwise.
        let history = HistoryRequests(failing: 0)
        let outage = Mutex(true)
        var reconciler = try await fixture.reconciler(holder: "this-instance", overlap: 0) { request in
            history.record(request)
            let later = request.url.query?.contains("paginationToken") == true
            return outage.withLock { $0 } && later ? HTTPResponseData(status: 503) : nil
        }
        reconciler.historyWindow = HistoryWindow(length: 86_400, targetPages: 2)
        let store = try await fixture.store

        await #expect(throws: AppStoreServerAPIError.self) { _ = try await reconciler.run() }
        let learnt = reconciler.historyWindow.length
        #expect(learnt < 120, "20 notifications signed within a minute: two pages' worth is shorter still")
        let failed = try #require(history.windows.last)
        #expect(try await store.checkpoint(Reconciler.checkpointName) == nil, "\(failed)")

        outage.withLock { $0 = false }
        let read = history.count
        let report = try await reconciler.run()
        let windows = history.windows.dropFirst(read)
        #expect(windows.first.map { $0.end - $0.start } == Int64((learnt * 1_000).rounded()))
        #expect(report.processed + report.duplicates >= 45)
        #expect(try await fixture.wallet("player-44") == ["coins": 100])
    }

    @Test("a window whose first page shows a busy stretch far longer than its target is cut to end shortly into it")
    func windowsAreCutWhereTheHistoryGetsBusy() {
        let window = HistoryWindow(length: 86_400, targetPages: 50)
        // Busy from 20 hours in, a notification every 10 ms: 72,000 pages to the end.
        let cut = window.cut(length: 86_400, start: 0, oldest: 72_000_000, spacing: 0.01)
        #expect(cut == 72_010, "the quiet 20 hours and 50 pages of 0.2 s")
        #expect(window.length == 72_010)
        #expect(
            window.cut(length: 86_400, start: 0, oldest: 86_397_000, spacing: 0.01) == nil,
            "3 s of it to the end: 15 pages, read on")
        #expect(window.cut(length: 86_400, start: 0, oldest: 0, spacing: 86_400) == nil, "quiet")
    }

    @Test("a pass whose window reaches a busy stretch cuts it there, reads on in shorter windows and completes")
    func aBusyStretchIsReadInShortWindows() async throws {
        let fixture = try await busyFixture()
        defer { Task { await fixture.shutdown() } }
        let history = HistoryRequests(failing: 0)
        var reconciler = try await fixture.reconciler(holder: "this-instance") { request in
            history.record(request)
            return nil
        }
        reconciler.historyWindow = HistoryWindow(length: 86_400, targetPages: 1)
        // The pass ends 10 minutes from now: the day's one window is quiet for 23 h 50 min,
        // then 45 notifications in a few seconds, then quiet again.
        let report = try await reconciler.run(now: Date().addingTimeInterval(600))
        let windows = history.windows
        let first = try #require(windows.first)
        let second = try #require(windows.dropFirst().first)
        #expect(second.start == first.start && second.end < first.end - 500_000, "cut after its first page")
        #expect(windows.count >= 4, "\(windows)")
        #expect(report.fetched >= 45 + 20, "the first page again, as duplicates")
        #expect(report.processed >= 45)
        #expect(try await fixture.wallet("player-44") == ["coins": 100])
    }

    /// A server with 45 purchases of `player-0` … `player-44` paid within a few seconds and
    /// never reported: three pages of history, which only the reconciler delivers.
    private func busyFixture() async throws -> ServerFixture {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        for index in 0..<45 {
            let order = try await fixture.order("player-\(index)")
            _ = try await fixture.pay(token: order.appAccountToken)
        }
        return fixture
    }

    /// The period of each request for Apple's notification history, in the order asked;
    /// answers the first `failing` requests with 503.
    final class HistoryRequests: Sendable {
        /// A period asked for, in epoch milliseconds.
        struct Window: Hashable {
            var start: Int64
            var end: Int64
        }

        private let failing: Int
        private let requests = Mutex<[Window]>([])

        init(failing: Int) {
            self.failing = failing
        }

        var count: Int { requests.withLock { $0.count } }
        var windows: [Window] { requests.withLock { $0 } }

        /// Records `request`'s period.
        @discardableResult
        func record(_ request: HTTPRequestData) -> Window {
            let body = request.body.flatMap { try? JSONDecoder().decode(NotificationHistoryRequest.self, from: $0) }
            let window = Window(start: body?.startDate ?? -1, end: body?.endDate ?? -1)
            requests.withLock { $0.append(window) }
            return window
        }

        /// Records `request` and tells whether it is one to fail.
        func fails(_ request: HTTPRequestData) -> Bool {
            record(request)
            return count <= failing
        }
    }

    /// A server whose reconciler reads the emulator's history through `history`, with one
    /// purchase paid and never reported (only the history delivers it).
    private func withReconciler(
        _ history: HistoryRequests,
        _ body: (ServerFixture, Reconciler, any LedgerStore) async throws -> Void
    ) async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        let order = try await fixture.order("alice")
        _ = try await fixture.pay(token: order.appAccountToken)
        let reconciler = try await fixture.reconciler(holder: "this-instance") {
            history.fails($0) ? HTTPResponseData(status: 503) : nil
        }
        try await body(fixture, reconciler, try await fixture.store)
    }
}
