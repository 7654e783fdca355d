import Foundation
import Synchronization

/// Ends a test process that stopped making progress, with the backtrace of every thread,
/// instead of leaving it for CI's deadline to end without a word.
///
/// A CI run once stopped printing in the middle of a simulation test and was killed at the
/// run's deadline 70 minutes later, with no failure printed: not even the test's own time
/// limit, which Swift Testing reports from a task of the cooperative thread pool, so the
/// pool itself had stopped running tasks. The watchdog runs on a thread of its own. It
/// aborts the process (Swift's runtime then prints every thread's backtrace) when a task
/// that beats once a second has not run for ``stallSeconds``, or when the process has run
/// for longer than ``deadlineSeconds``.
public enum StallWatchdog {
    /// How long the cooperative pool may run no heartbeat before the process is ended.
    public static let stallSeconds: TimeInterval = 180

    /// How long a test process may run: `STOREKEEPER_TEST_DEADLINE_SECONDS` from the
    /// environment, else 40 minutes (the whole suite takes under 10 here).
    public static let deadlineSeconds: TimeInterval =
        ProcessInfo.processInfo.environment["STOREKEEPER_TEST_DEADLINE_SECONDS"].flatMap(TimeInterval.init)
        .flatMap { $0 > 0 ? $0 : nil } ?? 2_400

    private static let beats = Atomic<Int>(0)
    private static let started = Atomic<Bool>(false)

    /// Starts the heartbeat and the watchdog's thread, once per process; later calls do
    /// nothing.
    public static func startOnce() {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        Task.detached(priority: .high) {
            while true {
                beats.add(1, ordering: .relaxed)
                try? await Task.sleep(for: .seconds(1))
            }
        }
        let watcher = Thread { watch(since: Date()) }
        watcher.name = "stall-watchdog"
        watcher.start()
    }

    private static func watch(since start: Date) {
        var seen = beats.load(ordering: .relaxed)
        var lastBeat = Date()
        while true {
            Thread.sleep(forTimeInterval: 5)
            let now = Date()
            let count = beats.load(ordering: .relaxed)
            if count != seen {
                seen = count
                lastBeat = now
            }
            if now.timeIntervalSince(lastBeat) > stallSeconds {
                end("no task of Swift's cooperative thread pool has run for \(Int(stallSeconds)) s")
            }
            if now.timeIntervalSince(start) > deadlineSeconds {
                end("the test process has run for more than \(Int(deadlineSeconds)) s")
            }
        }
    }

    private static func end(_ reason: String) -> Never {
        FileHandle.standardError.write(
            Data("StallWatchdog: \(reason); aborting, so that every thread's backtrace is printed\n".utf8))
        abort()
    }
}
