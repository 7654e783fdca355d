import AppStoreEmulator
import AppStoreModel
import Foundation
import Synchronization
import Testing

/// A retry due further away than a `Duration` holds (a huge time scale): the dispatcher
/// waits for it in steps instead of crashing on the conversion.
struct NotificationDispatcherLongWaitTests {
    @Test func aRetryDueBeyondAnyDurationIsWaitedForInSteps() async throws {
        let clock = SteppingClock(stepsBeforeBlocking: 3)
        let dispatcher = NotificationDispatcher(
            url: URL(string: "http://127.0.0.1:1/notifications"), transport: RefusingTransport(), timeScale: 1e300,
            clock: clock)
        #expect(await dispatcher.submit(uuid: "n-1", signedPayload: "a.b.c") == .scheduled)
        let deadline = ContinuousClock.now + .seconds(10)
        while clock.sleeps.count < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        await dispatcher.shutdown()
        #expect(clock.sleeps == Array(repeating: .seconds(1e9), count: 3))
    }
}

/// Answers every notification with HTTP 500, so that a retry is scheduled.
private struct RefusingTransport: NotificationTransport {
    func post(_ body: Data, to url: URL) async -> NotificationDeliveryResult {
        .response(statusCode: 500)
    }
}

/// Virtual time: each sleep advances `now` at once and is recorded, until
/// `stepsBeforeBlocking` sleeps; later ones block until cancelled.
private final class SteppingClock: NotificationClock {
    private let state = Mutex((now: Date(timeIntervalSince1970: 1_700_000_000), sleeps: [Duration]()))
    private let stepsBeforeBlocking: Int

    init(stepsBeforeBlocking: Int) {
        self.stepsBeforeBlocking = stepsBeforeBlocking
    }

    var now: Date { state.withLock { $0.now } }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let recorded = state.withLock { state in
            guard state.sleeps.count < stepsBeforeBlocking else { return false }
            state.sleeps.append(duration)
            let (seconds, attoseconds) = duration.components
            state.now.addTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
            return true
        }
        if !recorded { try await Task.sleep(for: .seconds(3600)) }
    }
}
