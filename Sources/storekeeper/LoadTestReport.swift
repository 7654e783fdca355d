import Foundation

/// The summary `storekeeper loadtest` prints: throughput, latency percentiles per phase
/// and errors by kind.
struct LoadTestReport: Encodable {
    /// Percentiles of one phase's latencies, in milliseconds.
    struct Latency: Encodable {
        var count: Int
        var p50: Double
        var p90: Double
        var p99: Double
        var max: Double

        /// Percentiles of `samples` (nearest rank on the sorted samples).
        init?(_ samples: [Duration]) {
            guard !samples.isEmpty else { return nil }
            let sorted = samples.sorted()
            func rank(_ fraction: Double) -> Double {
                let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
                return Self.milliseconds(sorted[Swift.max(0, Swift.min(sorted.count - 1, index))])
            }
            count = sorted.count
            p50 = rank(0.50)
            p90 = rank(0.90)
            p99 = rank(0.99)
            max = Self.milliseconds(sorted[sorted.count - 1])
        }

        private static func milliseconds(_ duration: Duration) -> Double {
            let (seconds, attoseconds) = duration.components
            return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        }
    }

    var url: String
    var productId: String
    var concurrency: Int
    var players: Int
    /// From the first request to the last answer, in seconds.
    var elapsedSeconds: Double
    /// Reports answered `delivered` or `already_delivered`.
    var deliveries: Int
    var delivered: Int
    var alreadyDelivered: Int
    var deliveriesPerSecond: Double
    var errors: Int
    var errorsByKind: [String: Int]
    /// Latencies per ``LoadTestPhase`` (raw value), in milliseconds.
    var latencyMilliseconds: [String: Latency]

    init(_ tally: LoadTestTally, elapsed: Duration, url: String, productId: String, concurrency: Int, players: Int) {
        let (seconds, attoseconds) = elapsed.components
        elapsedSeconds = Double(seconds) + Double(attoseconds) / 1e18
        self.url = url
        self.productId = productId
        self.concurrency = concurrency
        self.players = players
        deliveries = tally.deliveries
        delivered = tally.delivered
        alreadyDelivered = tally.alreadyDelivered
        deliveriesPerSecond = elapsedSeconds > 0 ? Double(tally.deliveries) / elapsedSeconds : 0
        errors = tally.errorCount
        errorsByKind = tally.errors
        latencyMilliseconds = [:]
        for phase in LoadTestPhase.allCases {
            latencyMilliseconds[phase.rawValue] = Latency(tally.samples[phase] ?? [])
        }
    }

    /// The report for people: a few lines and a latency table.
    var text: String {
        var lines = [
            "loadtest \(url): \(concurrency) workers, \(players) players, product \(productId), "
                + String(format: "%.1f s", elapsedSeconds),
            String(
                format: "deliveries: %d (%d delivered, %d already_delivered), %.1f/s", deliveries, delivered,
                alreadyDelivered, deliveriesPerSecond),
            "errors: \(errors)",
        ]
        for (kind, count) in errorsByKind.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            lines.append("  \(count)  \(kind)")
        }
        lines.append("latency ms      count      p50      p90      p99      max")
        for phase in LoadTestPhase.allCases {
            guard let latency = latencyMilliseconds[phase.rawValue] else { continue }
            lines.append(
                phase.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + String(
                        format: "%11d %8.2f %8.2f %8.2f %8.2f", latency.count, latency.p50, latency.p90, latency.p99,
                        latency.max))
        }
        lines.append("(path = order + charge + report of a delivered purchase; finish is timed apart)")
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
