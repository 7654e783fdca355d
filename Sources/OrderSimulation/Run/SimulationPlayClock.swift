import Foundation
import Synchronization

/// The Google Play side's clock in a run (``EmulatorConfiguration/playClock``): it starts at
/// the real time and runs ``rate`` times as fast as the real clock, and the run moves it ahead
/// at the end.
///
/// The run's time scale makes a subscription's month last a second, and so Google's three
/// days to acknowledge a purchase a tenth of a second of the Play side's time: slowed by
/// ``rate``, they last five minutes of the real clock, thirty of the reconciler's passes, as three
/// days hold many passes of a real server's reconciler. Once every purchase is settled the run
/// moves the clock past them all (``advance(by:)``) rather than wait.
///
/// The Play side's times lag the real clock by up to the run's length; the server's
/// reconciler reads Google's voided purchases an hour back from its last read, so a run up to
/// an hour long keeps every voided record within its reach.
final class SimulationPlayClock: Sendable {
    /// How fast the clock runs against the real one.
    static let rate = 1.0 / 3_000

    private struct State {
        var realStart: Date
        var start: Date
        var offset: TimeInterval = 0
    }

    private let state: Mutex<State>

    /// A clock starting at the real time now.
    init() {
        let now = Date()
        state = Mutex(State(realStart: now, start: now))
    }

    /// The Play side's time now.
    var now: Date {
        state.withLock { state in
            state.start.addingTimeInterval(Date().timeIntervalSince(state.realStart) * Self.rate + state.offset)
        }
    }

    /// Moves the clock `seconds` ahead.
    func advance(by seconds: TimeInterval) {
        state.withLock { $0.offset += seconds }
    }
}
