import Foundation

/// How many deliveries of a window took a time from Apple's charge to delivery in one
/// bucket of ``bucketBounds`` (``LedgerSchema/deliveryDays``, `delivery_latencies`).
public struct DeliveryLatencyCount: Sendable, Hashable {
    /// The bucket's lower bound in milliseconds (inclusive): one of ``bucketBounds``.
    public var lowerBound: Int64
    /// How many.
    public var deliveries: Int

    /// Creates a value.
    public init(lowerBound: Int64, deliveries: Int) {
        self.lowerBound = lowerBound
        self.deliveries = deliveries
    }

    /// How many buckets a factor of ten holds: a bucket is at most 10^(1/48) ≈ 1.049 times
    /// as wide as its lower bound (4.9%).
    public static var bucketsPerDecade: Int { 48 }

    /// The largest bound, in milliseconds: 1,000 hours (about 41.7 days); the last bucket
    /// holds every time from it on.
    public static var largestBound: Int64 { 3_600_000_000 }

    /// The lower bounds of the buckets in milliseconds, ascending: 0 (times under a
    /// millisecond, and negative ones from clocks that differ, counted as 0), then
    /// 10^(k/48) ms rounded to the millisecond for k = 0, 1, … (the same millisecond
    /// once; so below 25 ms every millisecond is its own bucket), up to
    /// ``largestBound``, and the bounds of the overview's coarse histogram (1 s, 10 s,
    /// 1 min, 10 min, 1 h), so that each coarse bucket is a run of whole fine ones. The
    /// migration writes them into `delivery_latency_buckets`; changing them changes a
    /// shipped migration.
    public static let bucketBounds: [Int64] = {
        var bounds: Set<Int64> = [0, 1_000, 10_000, 60_000, 600_000, 3_600_000, largestBound]
        var step = 0
        while true {
            let bound = pow(10, Double(step) / Double(bucketsPerDecade)).rounded()
            guard bound < Double(largestBound) else { break }
            bounds.insert(Int64(bound))
            step += 1
        }
        return bounds.sorted()
    }()
}
