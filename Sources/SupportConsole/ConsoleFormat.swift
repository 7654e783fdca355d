import AppStoreModel
import Foundation

/// How the console writes dates and amounts, the same in every language (templates never
/// format).
enum ConsoleFormat {
    /// `2026-11-24 04:13:38 UTC`: the whole seconds of `date`, on the proleptic Gregorian
    /// calendar (Foundation's `Calendar` agrees from 1582 on), by arithmetic rather than
    /// `Calendar.dateComponents` (a player page formats hundreds of dates). Every language
    /// writes dates this way; `language` is not read.
    static func date(_ date: Date, language: ConsoleLanguage = .english) -> String {
        // A ledger's dates are milliseconds of an Int64; anything beyond ±10^14 s (three
        // million years) is shown at that bound, and NaN as 1970, rather than trapping.
        let bound = 1e14
        let raw = date.timeIntervalSince1970
        let seconds = raw.isNaN ? 0 : Int(min(max(raw.rounded(.down), -bound), bound))
        let secondOfDay = (seconds % 86_400 + 86_400) % 86_400
        let (year, month, day) = ProlepticGregorian.civil(daysSince1970: (seconds - secondOfDay) / 86_400)
        func two(_ value: Int) -> String {
            value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(year)-\(two(month))-\(two(day)) "
            + "\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) UTC"
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
