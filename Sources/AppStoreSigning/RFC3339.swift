import Foundation

/// Formats dates as the receipt payload writes them: RFC 3339 in UTC with whole
/// seconds, e.g. `2024-02-23T10:11:12Z`.
enum RFC3339 {
    static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let wholeSeconds = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: wholeSeconds)
        return padded(parts.year, 4) + "-" + padded(parts.month, 2) + "-" + padded(parts.day, 2) + "T"
            + padded(parts.hour, 2) + ":" + padded(parts.minute, 2) + ":" + padded(parts.second, 2) + "Z"
    }

    private static func padded(_ value: Int?, _ width: Int) -> String {
        let digits = String(value ?? 0)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
