import AppStoreModel
import Foundation

/// Strict RFC 3339 date-times (JSON Schema's `date-time`), read and written:
/// `2026-11-22T10:00:00Z`, with optional fractional seconds, `Z` or a `±hh:mm` offset, `T`
/// and `Z` in either case; years 0000 to 9999 in UTC.
///
/// Foundation's ISO 8601 parsing rolls out-of-range fields over (`12:99` reads as `13:39`);
/// this refuses them, and accepts second 60 only for a leap second (23:59:60 UTC).
enum RFC3339Date {
    /// The date `text` names; `nil` when it is not an RFC 3339 date-time.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.uppercased().utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("T"), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2)
        else { return nil }
        var fraction = 0.0
        if expect(".") {
            let start = index
            var scale = 0.1
            while let digit = digits(1) {
                fraction += Double(digit) * scale
                scale /= 10
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if !expect("Z") {
            let sign: Int
            if expect("+") {
                sign = 1
            } else if expect("-") {
                sign = -1
            } else {
                return nil
            }
            guard let offsetHours = digits(2), expect(":"), let offsetMinutes = digits(2), offsetHours <= 23,
                offsetMinutes <= 59
            else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month),
            (1...ProlepticGregorian.daysIn(month: month, of: year)).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let seconds =
            ProlepticGregorian.daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
            + second
            - offset
        // Only instants RFC 3339 can write back in UTC: years 0000 to 9999.
        guard (minimumSeconds...maximumSeconds).contains(seconds) else { return nil }
        if second == 60 {
            // A leap second is the last second of a UTC day.
            guard ((seconds - 60) % 86_400 + 86_400) % 86_400 == 23 * 3600 + 59 * 60 else { return nil }
        }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `date` in UTC, `2026-11-22T10:00:00Z`, with milliseconds when it has a fraction of a
    /// second (`…:00.250Z`); proleptic Gregorian, as ``parse(_:)`` reads it back. A date
    /// outside years 0000 to 9999 is written as the nearer end of that range.
    static func format(_ date: Date) -> String {
        let bounds = Double(minimumSeconds) * 1000...Double(maximumSeconds) * 1000 + 999
        let milliseconds = Int(
            min(max((date.timeIntervalSince1970 * 1000).rounded(), bounds.lowerBound), bounds.upperBound))
        let (days, millisecondOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = ProlepticGregorian.civil(daysSince1970: days)
        let seconds = millisecondOfDay / 1000
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text =
            "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(seconds / 3600, 2)):\(padded(seconds / 60 % 60, 2)):\(padded(seconds % 60, 2))"
        if millisecondOfDay % 1000 != 0 { text += ".\(padded(millisecondOfDay % 1000, 3))" }
        return text + "Z"
    }

    private static let minimumSeconds = ProlepticGregorian.daysSince1970(year: 0, month: 1, day: 1) * 86_400
    private static let maximumSeconds = ProlepticGregorian.daysSince1970(year: 10_000, month: 1, day: 1) * 86_400 - 1

    private static func floorDivide(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }
}
