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

    @Test("a window of many pages makes the next one shorter; one of few pages, longer")
    func windowsFollowTheHistorysDensity() {
        let window = HistoryWindow(length: 3_600, targetPages: 50)
        #expect(window.length == 3_600)
        window.record(length: 80, pages: 400)
        #expect(window.length == 10, "400 pages in 80 s: 50 pages in 10 s")
        window.record(length: 10, pages: 25)
        #expect(window.length == 20, "twice as long at most")
        window.record(length: 20, pages: 0)
        #expect(window.length == 40)
        window.record(length: 2, pages: 10_000)
        #expect(window.length == HistoryWindow.shortest)
        window.record(length: HistoryWindow.longest, pages: 1)
        #expect(window.length == HistoryWindow.longest)
        #expect(HistoryWindow(length: .nan).length == HistoryWindow.longest)
    }

    @Test("a dense day of history read in one window makes the next pass read it in shorter ones")
    func denseHistoryShortensTheWindow() async throws {
        let fixture = try await ServerFixture(.sqlite, notifications: false)
        defer { Task { await fixture.shutdown() } }
        for index in 0..<21 {
            let order = try await fixture.order("player-\(index)")
            _ = try await fixture.pay(token: order.appAccountToken)
        }
        let history = HistoryRequests(failing: 0)
        var reconciler = try await fixture.reconciler(holder: "this-instance", overlap: 86_400) { request in
            _ = history.record(request)
            return nil
        }
        reconciler.historyWindow = HistoryWindow(length: 86_400, targetPages: 1)

        let first = try await reconciler.run()
        #expect(first.fetched >= 21)
        #expect(history.windows.count == 2, "one window, two pages of 20")
        #expect(reconciler.historyWindow.length == 43_200, "half a day would have held one page")
        let read = history.windows.count
        _ = try await reconciler.run()
        let windows = Set(history.windows.dropFirst(read))
        #expect(windows.count >= 2, "the day again, in windows of at most 12 hours: \(windows)")
        #expect(windows.allSatisfy { $0.end - $0.start <= 43_200_000 })
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
