import AppStoreAPI
import AppStoreEmulator
import Foundation
import Ledger
import LedgerTestSupport
import Synchronization
import Testing

@testable import PurchaseServer

/// A page of Apple's notification history that fails with a transient error is asked for
/// again, so one error does not throw a whole pass away; a page that keeps failing ends the
/// pass without moving the checkpoint.
@Suite("Reconciler page retries")
struct ReconcilerPageRetryTests {
    @Test("a history page answered 503 twice is asked for again and the pass completes")
    func transientErrorsAreRetried() async throws {
        let history = HistoryRequests(failing: 2)
        try await withReconciler(history) { fixture, reconciler, store in
            let report = try await reconciler.run()
            #expect(history.count == 3, "two 503s, then the page")
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
        #expect(try await store.checkpoint(Reconciler.checkpointName) == nil, "the next pass reads it again")

        await fixture.emulator.setFaults(EmulatorFaults())
        _ = try await reconciler.run()
        #expect(try await fixture.emulator.consumptionInformation(refused) != nil, "answered by the next pass")
        #expect(try await store.checkpoint(Reconciler.checkpointName) != nil)
    }

    /// Counts the requests for Apple's notification history and answers the first `failing`
    /// with 503.
    final class HistoryRequests: Sendable {
        private let failing: Int
        private let requests = Mutex(0)

        init(failing: Int) {
            self.failing = failing
        }

        var count: Int { requests.withLock { $0 } }

        /// Whether this request (counted now) is one to fail.
        func fails() -> Bool {
            requests.withLock {
                $0 += 1
                return $0 <= failing
            }
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
        let reconciler = try await fixture.reconciler(holder: "this-instance") { _ in
            history.fails() ? HTTPResponseData(status: 503) : nil
        }
        try await body(fixture, reconciler, try await fixture.store)
    }
}
