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
    /// fall in it (dates outside them are not counted).
    static func count(_ dates: [Date], days: Int, endingAt now: Date) -> [(day: Date, count: Int)] {
        let today = calendar.startOfDay(for: now)
        let starts = (0..<max(days, 1)).reversed().compactMap {
            calendar.date(byAdding: .day, value: -$0, to: today)
        }
        var counts = Array(repeating: 0, count: starts.count)
        guard let first = starts.first else { return [] }
        for date in dates where date >= first {
            let offset = calendar.dateComponents([.day], from: first, to: calendar.startOfDay(for: date)).day ?? -1
            if counts.indices.contains(offset) { counts[offset] += 1 }
        }
        return zip(starts, counts).map { (day: $0, count: $1) }
    }

    /// A day as `MM-dd` (UTC), the category labels of the per-day charts.
    static func label(_ day: Date) -> String {
        let components = calendar.dateComponents([.month, .day], from: day)
        return String(format: "%02d-%02d", components.month ?? 0, components.day ?? 0)
    }
}
