import Foundation
import Ledger

@testable import SupportConsole

/// What the overview computed before the ledger counted latencies in buckets (migration 18),
/// kept here only as the reference the bucketed ``LatencyStatistics`` is held against: the
/// median, p99 and histogram of every latency, one by one.
struct LatencyReference {
    /// The median: the middle latency, or the mean of the two middle ones.
    var median: TimeInterval?
    /// The 99th percentile by nearest rank.
    var p99: TimeInterval?
    /// How many latencies fall in each ``LatencyStatistics/Bucket``.
    var histogram: [Int]

    /// Sums up `milliseconds` (any order) as the overview did.
    init(milliseconds: [Int64]) {
        let sorted = milliseconds.map { Double($0) / 1_000 }.sorted()
        if sorted.isEmpty {
            median = nil
            p99 = nil
        } else {
            let middle = sorted.count / 2
            median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            let rank = Int((0.99 * Double(sorted.count)).rounded(.up))
            p99 = sorted[min(max(rank, 1), sorted.count) - 1]
        }
        var histogram = Array(repeating: 0, count: LatencyStatistics.Bucket.allCases.count)
        for latency in sorted { histogram[LatencyStatistics.Bucket(latency).rawValue] += 1 }
        self.histogram = histogram
    }

    /// `milliseconds` counted per fine bucket, as the ledger's trigger counts them
    /// (negative ones as 0).
    static func counts(_ milliseconds: [Int64]) -> [DeliveryLatencyCount] {
        var counts: [Int64: Int] = [:]
        for value in milliseconds {
            let bound = DeliveryLatencyCount.bucketBounds.last { $0 <= max(value, 0) } ?? 0
            counts[bound, default: 0] += 1
        }
        return counts.map { DeliveryLatencyCount(lowerBound: $0.key, deliveries: $0.value) }
    }
}
