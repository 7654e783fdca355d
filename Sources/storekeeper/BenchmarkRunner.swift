import Foundation

/// Runs one operation repeatedly on the current task for a fixed time and summarizes
/// how long each run took.
struct BenchmarkRunner {
    /// The outcome of one benchmark.
    struct Result: Encodable {
        var name: String
        var iterations: Int
        var operationsPerSecond: Double
        var meanMicroseconds: Double
        var p50Microseconds: Double
        var p99Microseconds: Double
        /// The p50 time over the P-256 floor's p50 in the same run; set by ``BenchmarkReport``.
        var p50VersusFloor: Double?
    }

    let seconds: Double
    /// Only cases whose name contains this run, when set.
    let filter: String?

    /// Runs `operation` after a short warm-up until `seconds` have passed, at least once
    /// (a deadline shorter than one run still yields a sample); `nil` when the filter
    /// excludes the case.
    func measure(_ name: String, _ operation: () async throws -> Void) async throws -> Result? {
        if let filter, !name.contains(filter) { return nil }
        let clock = ContinuousClock()
        for _ in 0..<20 { try await operation() }
        var samples: [Duration] = []
        samples.reserveCapacity(100_000)
        let deadline = clock.now.advanced(by: .seconds(seconds))
        let start = clock.now
        repeat {
            let began = clock.now
            try await operation()
            samples.append(clock.now - began)
        } while clock.now < deadline
        let elapsed = Self.microseconds(clock.now - start)
        samples.sort()
        return Result(
            name: name,
            iterations: samples.count,
            operationsPerSecond: Double(samples.count) / (elapsed / 1_000_000),
            meanMicroseconds: elapsed / Double(samples.count),
            p50Microseconds: Self.microseconds(samples[samples.count / 2]),
            p99Microseconds: Self.microseconds(samples[min(samples.count - 1, samples.count * 99 / 100)])
        )
    }

    private static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000_000 + Double(attoseconds) / 1_000_000_000_000
    }
}
