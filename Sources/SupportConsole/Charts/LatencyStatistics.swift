import Foundation
import Ledger

/// Time from Apple's charge to the ledger's delivery, summed up for the overview from the
/// ledger's counts per fine bucket: median, 99th percentile (within 2.5%) and a histogram
/// on a log scale (exact).
struct LatencyStatistics: Sendable, Hashable {
    /// The histogram's buckets: under 1 s, 10 s, 1 min, 10 min, 1 h, and 1 h or more.
    enum Bucket: Int, CaseIterable, Sendable {
        case underOneSecond, underTenSeconds, underOneMinute, underTenMinutes, underOneHour, oneHourOrMore

        /// The bucket's upper bound in seconds (exclusive); `nil` for the last.
        var upperBound: TimeInterval? {
            switch self {
            case .underOneSecond: 1
            case .underTenSeconds: 10
            case .underOneMinute: 60
            case .underTenMinutes: 600
            case .underOneHour: 3_600
            case .oneHourOrMore: nil
            }
        }

        /// The bucket's label (`<1 s`, …, `≥1 h`).
        var label: String {
            switch self {
            case .underOneSecond: "<1 s"
            case .underTenSeconds: "<10 s"
            case .underOneMinute: "<1 min"
            case .underTenMinutes: "<10 min"
            case .underOneHour: "<1 h"
            case .oneHourOrMore: "≥1 h"
            }
        }

        /// The bucket a latency falls in (negative latencies, from clocks that differ, in the first).
        init(_ seconds: TimeInterval) {
            self = Self.allCases.first { bucket in bucket.upperBound.map { seconds < $0 } ?? true } ?? .oneHourOrMore
        }
    }

    /// How many latencies were summed up.
    var count: Int
    /// The median: the middle latency, or the mean of the two middle ones; `nil` without any.
    var median: TimeInterval?
    /// The 99th percentile by nearest rank: the smallest latency at least 99% of all are at
    /// or below; `nil` without any.
    var p99: TimeInterval?
    /// How many latencies fall in each ``Bucket``, in bucket order.
    var histogram: [Int]

    /// Sums up the ledger's counts of latencies per fine bucket (``DeliveryLatencyCount``,
    /// any order). The histogram is exact: each ``Bucket``'s bounds are bounds of fine
    /// buckets. A rank's latency is its fine bucket's geometric middle (within 2.5% of the
    /// true one; a bucket of one millisecond its millisecond, the last bucket its lower
    /// bound), and the median and the 99th percentile are taken from those.
    init(counts: [DeliveryLatencyCount]) {
        let sorted = counts.filter { $0.deliveries > 0 }.sorted { $0.lowerBound < $1.lowerBound }
        count = sorted.reduce(0) { $0 &+ $1.deliveries }
        var histogram = Array(repeating: 0, count: Bucket.allCases.count)
        for bucket in sorted { histogram[Bucket(Double(bucket.lowerBound) / 1_000).rawValue] &+= bucket.deliveries }
        self.histogram = histogram
        let count = count
        /// The latency of the `rank`th (1-based) in ascending order.
        func latency(rank: Int) -> TimeInterval {
            var seen = 0
            for bucket in sorted {
                seen &+= bucket.deliveries
                if seen >= rank { return Self.middle(ofBucketFrom: bucket.lowerBound) }
            }
            return sorted.last.map { Self.middle(ofBucketFrom: $0.lowerBound) } ?? 0
        }
        guard count > 0 else {
            median = nil
            p99 = nil
            return
        }
        median =
            count % 2 == 1
            ? latency(rank: count / 2 + 1) : (latency(rank: count / 2) + latency(rank: count / 2 + 1)) / 2
        p99 = latency(rank: min(max(Int((0.99 * Double(count)).rounded(.up)), 1), count))
    }

    /// The seconds that stand for every latency of the fine bucket whose lower bound is
    /// `lowerBound` milliseconds: the geometric middle of its whole milliseconds (the ledger
    /// keeps milliseconds), so within 2.5% of each; its lower bound when it holds one
    /// millisecond or is the last.
    static func middle(ofBucketFrom lowerBound: Int64) -> TimeInterval {
        guard let upper = DeliveryLatencyCount.bucketBounds.first(where: { $0 > lowerBound }), upper - lowerBound > 1
        else { return Double(lowerBound) / 1_000 }
        return (Double(lowerBound) * Double(upper - 1)).squareRoot() / 1_000
    }

    /// A duration for people: `850 ms`, `12.3 s`, `4 min 5 s`, `2 h 3 min`.
    static func format(_ seconds: TimeInterval) -> String {
        let value = max(seconds, 0)
        if value < 1 { return "\(Int((value * 1_000).rounded())) ms" }
        if value < 60 {
            let tenths = (value * 10).rounded() / 10
            return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
        }
        let whole = Int(value.rounded())
        if whole < 3_600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3_600) h \(whole % 3_600 / 60) min"
    }
}
