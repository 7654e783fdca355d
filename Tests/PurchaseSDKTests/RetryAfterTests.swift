import Foundation
import PurchaseSDK
import Synchronization
import Testing

/// A server that sheds load answers 503 (or 429) with `Retry-After`: the pipeline waits at
/// least that long, at most its longest backoff, before it reports again, and the paid
/// order stays queued until it is delivered.
@Suite(.timeLimit(.minutes(3))) struct RetryAfterTests {
    @Test func aShedReportWaitsTheRetryAfterAndIsDeliveredOnce() async throws {
        try await withFixture { fixture in
            await fixture.faults.add(.status(503, retryAfter: 7), times: 1, path: "/v1/purchases")
            await fixture.faults.add(.status(429, retryAfter: 3), times: 1, path: "/v1/purchases")
            await fixture.faults.add(.status(503, retryAfter: 3_600), times: 1, path: "/v1/purchases")
            let clock = WaitLog()
            let (pipeline, _) = await fixture.pipeline(
                player: "ivy", clock: clock,
                retry: RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .seconds(60), jitter: 0.5))
            try await pipeline.start()
            let outcome = try await pipeline.purchase(productId: "coins100")
            guard case .delivered(let record) = outcome else {
                Issue.record("expected a delivery, got \(outcome)")
                return
            }
            #expect(try await fixture.purchases("ivy").map(\.transactionId) == [record.transactionId])
            #expect(try await fixture.wallet("ivy") == ["coins": 100])
            #expect(outcome.record.attempts == 3)
            // The fixture's random is 1: each Retry-After spread by the whole jitter (half of
            // it again), never below it; an hour is held to the policy's 60 s. A call that
            // fails otherwise on a saturated machine (a timeout) is retried after the policy's
            // own backoff, 20 ms doubling: those waits stay under a second and are left out.
            #expect(
                clock.waits.filter { $0 >= .seconds(1) } == [.milliseconds(10_500), .milliseconds(4_500), .seconds(60)])
            await pipeline.stop()
        }
    }

    @Test func theWaitIsAtLeastTheRetryAfterAndAtMostTheLongestBackoff() {
        let policy = RetryPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(30), jitter: 0.5)
        #expect(policy.delay(afterFailures: 1, random: 0, retryAfter: .seconds(5)) == .seconds(5))
        #expect(policy.delay(afterFailures: 1, random: 1, retryAfter: .seconds(5)) == .milliseconds(7_500))
        #expect(policy.delay(afterFailures: 1, random: 0, retryAfter: .seconds(600)) == .seconds(30))
        // A backoff already longer than the Retry-After is kept (30 s capped, half of it jittered).
        #expect(policy.delay(afterFailures: 8, random: 0, retryAfter: .seconds(1)) == .seconds(15))
        #expect(policy.delay(afterFailures: 1, random: 0, retryAfter: nil) == policy.delay(afterFailures: 1, random: 0))
        #expect(
            policy.delay(afterFailures: 1, random: 0, retryAfter: .zero) == policy.delay(afterFailures: 1, random: 0))
    }

    @Test func retryAfterIsReadAsSecondsOnly() {
        func response(_ value: String?) -> NetworkResponse {
            NetworkResponse(status: 503, body: Data(), headers: value.map { ["retry-after": $0] } ?? [:])
        }
        #expect(response("7").retryAfter == .seconds(7))
        #expect(response(" 12 ").retryAfter == .seconds(12))
        #expect(response("0").retryAfter == .zero)
        #expect(response(nil).retryAfter == nil)
        #expect(response("-1").retryAfter == nil)
        #expect(response("86401").retryAfter == nil)
        #expect(response("Wed, 21 Oct 2015 07:28:00 GMT").retryAfter == nil, "an HTTP date: the backoff applies")
        #expect(response("99999999999999999999").retryAfter == nil)
        #expect(NetworkResponse(status: 503, body: Data(), headers: ["Retry-After": "2"]).retryAfter == .seconds(2))
    }
}

/// A pipeline clock that remembers every wait and returns at once.
private final class WaitLog: PipelineClock {
    private let log = Mutex<[Duration]>([])

    var now: Date { Date() }

    /// The waits asked for, in order.
    var waits: [Duration] { log.withLock { $0 } }

    func sleep(for duration: Duration) async throws {
        log.withLock { $0.append(duration) }
    }
}
