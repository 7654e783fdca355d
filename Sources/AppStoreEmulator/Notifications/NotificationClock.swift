import Foundation

/// The time source of ``NotificationDispatcher``: wall-clock dates for attempt records and
/// the retry schedule, and sleeping until the next attempt is due.
///
/// ``SystemNotificationClock`` is the real one; tests may supply a virtual clock.
public protocol NotificationClock: Sendable {
    /// The current date.
    var now: Date { get }
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's clock: `Date()` and `Task.sleep(for:)`.
public struct SystemNotificationClock: NotificationClock {
    /// Creates the system clock.
    public init() {}

    /// The current date.
    public var now: Date { Date() }

    /// Suspends the current task for `duration`.
    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
