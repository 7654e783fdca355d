import Foundation

/// When the App Store sends a notification again after a failed attempt.
///
/// Apple retries a notification that did not get HTTP 200 1, 12, 24, 48 and 72 hours after
/// the previous attempt: at most six attempts in all (``apple``).
public struct NotificationRetrySchedule: Hashable, Sendable {
    /// The wait after each failed attempt: element `n - 1` separates attempt `n` from
    /// attempt `n + 1`.
    public var retryIntervals: [Duration]

    /// Creates a schedule from the waits between consecutive attempts.
    public init(retryIntervals: [Duration]) {
        self.retryIntervals = retryIntervals
    }

    /// Apple's schedule: retries 1, 12, 24, 48 and 72 hours after the previous attempt.
    public static let apple = NotificationRetrySchedule(
        retryIntervals: [1, 12, 24, 48, 72].map { Duration.seconds($0 * 3600) }
    )

    /// A Cloud Pub/Sub push subscription's schedule (its retry policy's exponential backoff,
    /// Google's bounds): 10 seconds after the first failed attempt, doubling up to 600
    /// seconds, until the message has waited Pub/Sub's default retention of 7 days.
    public static let pubSubPush: NotificationRetrySchedule = {
        var intervals: [Duration] = []
        var total = 0
        var wait = 10
        while total + wait <= 7 * 86_400 {
            intervals.append(.seconds(wait))
            total += wait
            wait = min(wait * 2, 600)
        }
        return NotificationRetrySchedule(retryIntervals: intervals)
    }()

    /// The most attempts a notification gets, the first one included.
    public var maximumAttempts: Int { retryIntervals.count + 1 }

    /// The wait between attempt `attemptNumber` (1-based) and the next one, or `nil` when
    /// no attempt follows it.
    public func interval(afterAttempt attemptNumber: Int) -> Duration? {
        guard attemptNumber >= 1, attemptNumber <= retryIntervals.count else { return nil }
        return retryIntervals[attemptNumber - 1]
    }

    /// The date attempt `attemptNumber + 1` is due when attempt `attemptNumber` was made at
    /// `lastAttempt`, with every wait multiplied by `timeScale`; `nil` when no attempt
    /// follows.
    public func nextAttemptDate(afterAttempt attemptNumber: Int, at lastAttempt: Date, timeScale: Double) -> Date? {
        guard let interval = interval(afterAttempt: attemptNumber) else { return nil }
        return lastAttempt.addingTimeInterval(seconds(interval) * timeScale)
    }
}

private func seconds(_ duration: Duration) -> TimeInterval {
    let (whole, attoseconds) = duration.components
    return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
}
