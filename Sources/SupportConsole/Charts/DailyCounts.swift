import Foundation
import Ledger

/// Counts of dated events per UTC day, for the overview's per-day charts.
enum DailyCounts {
    /// The UTC calendar days are counted in.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The `days` UTC days ending with `now`'s, oldest first, each with how many of `dates`
    /// fall in it (dates outside them are not counted). Each date's day is its
    /// ``dayNumber(_:)``, arithmetic only: the calendar answers the `days` starts alone (a
    /// calendar call per date made the overview grow by milliseconds per thousand
    /// deliveries, docs/PERFORMANCE.md "Years of history").
    static func count(_ dates: [Date], days: Int, endingAt now: Date) -> [(day: Date, count: Int)] {
        sum(dates.map { (day: dayNumber($0), count: 1) }, days: days, endingAt: now)
    }

    /// The `days` UTC days ending with `now`'s, oldest first, each with the sum of the
    /// `counts` of its ``dayNumber(_:)`` (counts of other days are left out): counts the
    /// ledger kept per day, such as `delivery_days`.
    static func sum(_ counts: [(day: Int, count: Int)], days: Int, endingAt now: Date) -> [(day: Date, count: Int)] {
        let today = calendar.startOfDay(for: now)
        let starts = (0..<max(days, 1)).reversed().compactMap {
            calendar.date(byAdding: .day, value: -$0, to: today)
        }
        var sums = Array(repeating: 0, count: starts.count)
        guard let first = starts.first else { return [] }
        let firstDay = dayNumber(first)
        for count in counts {
            let offset = count.day - firstDay
            if sums.indices.contains(offset) { sums[offset] &+= count.count }
        }
        return zip(starts, sums).map { (day: $0, count: $1) }
    }

    /// The UTC day `date` falls in, counted from 1970-01-01 (day 0; earlier days negative):
    /// the ledger's ``DeliveryDayCount/day(_:)``, the day numbers `delivery_days` is kept by.
    static func dayNumber(_ date: Date) -> Int { DeliveryDayCount.day(date) }

    /// A day as `MM-dd` (UTC), the category labels of the per-day charts.
    static func label(_ day: Date) -> String {
        let components = calendar.dateComponents([.month, .day], from: day)
        return String(format: "%02d-%02d", components.month ?? 0, components.day ?? 0)
    }
}
