import Foundation
import Synchronization

/// A clock a test moves by hand: what the stores, the Play emulator or a fixture read as
/// "now" when the test passes `{ clock.now }` as their clock. Safe from any thread.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    /// A clock standing at `start` (by default a fixed moment in 2027, so that a test's
    /// dates are the same on every run) until moved.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    /// The current time.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock `seconds` ahead (or back, when negative).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
