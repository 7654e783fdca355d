import Logging
import Synchronization

/// Keeps a flood of one log record to one line per interval: the first of identical
/// records is written, the next ones within ``interval`` are only counted, and when the
/// interval ends one line says how many there were (`request failed (repeated 4700 times in
/// the last 10 s)`). A record that stops repeating for a whole interval is written in full
/// again when it comes back.
///
/// Records are identical when their level, label, source, message and metadata are, but for
/// the metadata keys in ``ignoredMetadataKeys`` (those that differ per request). One
/// instance is shared by every handler of a process (``StandardErrorLog``); the time comes
/// from `now`, so tests move it by hand.
public final class RepeatedLogLines: Sendable {
    /// The metadata keys that do not make two records different: `path` (a request's path,
    /// which holds ids), `hb.request.id`.
    public static let ignoredMetadataKeys: Set<String> = ["path", "hb.request.id"]

    /// How long repeats are counted before their count is written.
    public let interval: Duration
    /// The least severe level whose records are counted (less severe ones are always written).
    public let minimumLevel: Logger.Level
    /// The most records followed at once; records beyond it are written as they come.
    private let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// Writes the count line of a record: its repeats and the time they were counted over.
    public typealias Summary = @Sendable (_ count: Int, _ over: Duration) -> Void

    private struct Entry {
        var since: ContinuousClock.Instant
        var count: Int
        let summary: Summary
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// When the earliest interval ends, if any is followed.
        var nextEnd: ContinuousClock.Instant?
    }

    /// Counts repeats of records at `minimumLevel` and above over `interval`, by the clock `now`.
    public init(
        interval: Duration = .seconds(10), minimumLevel: Logger.Level = .warning, capacity: Int = 1_000,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.interval = interval
        self.minimumLevel = minimumLevel
        self.capacity = capacity
        self.now = now
    }

    /// Whether the record identified by `key` is written now (`false`: it repeats one
    /// written within the interval, and is counted). `summary` writes its count line when
    /// its interval ends. Count lines of intervals that ended are written first.
    public func admit(_ key: String, summary: @escaping Summary) -> Bool {
        let time = now()
        let (ended, admitted) = state.withLock { state -> ([(Summary, Int, Duration)], Bool) in
            let ended = Self.takeEnded(&state, at: time, interval: interval)
            if state.entries[key] != nil {
                state.entries[key]?.count += 1
                return (ended, false)
            }
            if state.entries.count < capacity {
                state.entries[key] = Entry(since: time, count: 0, summary: summary)
                state.nextEnd = min(state.nextEnd ?? time + interval, time + interval)
            }
            return (ended, true)
        }
        for (summary, count, over) in ended { summary(count, over) }
        return admitted
    }

    /// Writes the count lines of the intervals that ended (a process calls it every second,
    /// so a count is written even when nothing else is logged).
    public func flush() {
        let time = now()
        let ended = state.withLock { Self.takeEnded(&$0, at: time, interval: interval) }
        for (summary, count, over) in ended { summary(count, over) }
    }

    /// The records whose interval ended with repeats (each starts a new interval), after
    /// forgetting those that ended without.
    private static func takeEnded(
        _ state: inout State, at time: ContinuousClock.Instant, interval: Duration
    ) -> [(Summary, Int, Duration)] {
        guard let nextEnd = state.nextEnd, time >= nextEnd else { return [] }
        var ended: [(Summary, Int, Duration)] = []
        var earliest: ContinuousClock.Instant?
        for (key, entry) in state.entries {
            guard time - entry.since >= interval else {
                earliest = min(earliest ?? entry.since, entry.since)
                continue
            }
            if entry.count == 0 {
                state.entries[key] = nil
            } else {
                ended.append((entry.summary, entry.count, time - entry.since))
                state.entries[key] = Entry(since: time, count: 0, summary: entry.summary)
                earliest = min(earliest ?? time, time)
            }
        }
        state.nextEnd = earliest.map { $0 + interval }
        return ended
    }

    /// `request failed (repeated 4700 times in the last 10 s)`.
    static func message(_ message: String, repeated count: Int, over: Duration) -> String {
        let seconds = Double(over.components.seconds) + Double(over.components.attoseconds) / 1e18
        let times = count == 1 ? "once" : "\(count) times"
        return "\(message) (repeated \(times) in the last \(Int(seconds.rounded())) s)"
    }
}
