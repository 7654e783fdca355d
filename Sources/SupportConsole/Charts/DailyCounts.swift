import Foundation

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
        let today = calendar.startOfDay(for: now)
        let starts = (0..<max(days, 1)).reversed().compactMap {
            calendar.date(byAdding: .day, value: -$0, to: today)
        }
        var counts = Array(repeating: 0, count: starts.count)
        guard let first = starts.first else { return [] }
        let firstDay = dayNumber(first)
        for date in dates {
            let offset = dayNumber(date) - firstDay
            if counts.indices.contains(offset) { counts[offset] += 1 }
        }
        return zip(starts, counts).map { (day: $0, count: $1) }
    }

    /// The UTC day `date` falls in, counted from 1970-01-01 (day 0; earlier days negative): a
    /// UTC day is 86,400 seconds, with no daylight saving time and no leap seconds in `Date`.
    /// Dates beyond a billion days either way count as that far.
    static func dayNumber(_ date: Date) -> Int {
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        return days.isNaN ? 0 : Int(min(max(days, -1e9), 1e9))
    }

    /// A day as `MM-dd` (UTC), the category labels of the per-day charts.
    static func label(_ day: Date) -> String {
        let components = calendar.dateComponents([.month, .day], from: day)
        return String(format: "%02d-%02d", components.month ?? 0, components.day ?? 0)
    }
}
