import Foundation

/// How the console writes dates and amounts, the same in every language (templates never
/// format).
enum ConsoleFormat {
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `2026-11-24 04:13:38 UTC`.
    static func date(_ date: Date, language: ConsoleLanguage = .english) -> String {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) UTC"
    }

    /// `2026-11-24` (a UTC day).
    static func day(_ date: Date) -> String {
        String(Self.date(date).prefix(10))
    }

    /// An amount with its sign and thousands separators: `+1,000`, `−5` (the minus sign
    /// U+2212), `0`.
    static func amount(_ value: Int64) -> String {
        let digits = grouped(value.magnitude)
        if value > 0 { return "+" + digits }
        if value < 0 { return "\u{2212}" + digits }
        return digits
    }

    /// A count with thousands separators: `12,345`.
    static func count(_ value: Int) -> String {
        value < 0 ? "\u{2212}" + grouped(UInt64(value.magnitude)) : grouped(UInt64(value))
    }

    private static func grouped(_ value: UInt64) -> String {
        let text = String(value)
        var result = ""
        for (index, character) in text.enumerated() {
            if index > 0, (text.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
