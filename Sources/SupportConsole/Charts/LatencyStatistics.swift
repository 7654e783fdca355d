import Foundation

/// Time from Apple's charge to the ledger's delivery, summed up for the overview: median,
/// 99th percentile and a histogram on a log scale.
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

    /// Sums up `latencies` (seconds, any order).
    init(latencies: [TimeInterval]) {
        let sorted = latencies.sorted()
        count = sorted.count
        median = Self.median(sorted)
        p99 = Self.percentile(sorted, 99)
        var histogram = Array(repeating: 0, count: Bucket.allCases.count)
        for latency in sorted { histogram[Bucket(latency).rawValue] += 1 }
        self.histogram = histogram
    }

    /// The median of ascending `sorted`.
    static func median(_ sorted: [TimeInterval]) -> TimeInterval? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The `percent`th percentile of ascending `sorted` by nearest rank: the value at rank
    /// ⌈percent/100 × n⌉ (1-based).
    static func percentile(_ sorted: [TimeInterval], _ percent: Double) -> TimeInterval? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
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
