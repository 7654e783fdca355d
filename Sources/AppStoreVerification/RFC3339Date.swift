import AppStoreModel
import Foundation

/// A fast parser for the RFC 3339 timestamps in receipts, e.g. `2024-02-23T10:11:12Z`,
/// with optional fractional seconds and a `Z`, `±hh:mm` or `±hhmm` offset (Xcode's
/// StoreKit testing writes the last).
enum RFC3339Date {
    /// The date `text` (ASCII bytes) writes, or `nil` when it is not such a timestamp.
    static func parse(_ text: ArraySlice<UInt8>) -> Date? {
        let bytes = Timestamp(text)
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20,
            bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }

        var index = 19
        var fraction = 0.0
        if bytes[index] == 0x2E {
            var scale = 0.1
            index += 1
            let start = index
            while index < bytes.count, let digit = digit(bytes[index]) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        switch bytes[index] {
        case 0x5A where index == bytes.count - 1:
            break
        case 0x2B, 0x2D:
            let hasColon = bytes.count == index + 6 && bytes[index + 3] == 0x3A
            guard hasColon || bytes.count == index + 5,
                let offsetHours = number(bytes, index + 1, 2),
                let offsetMinutes = number(bytes, index + (hasColon ? 4 : 3), 2)
            else { return nil }
            offset = (offsetHours * 60 + offsetMinutes) * 60 * (bytes[index] == 0x2D ? -1 : 1)
        default:
            return nil
        }
        let days = ProlepticGregorian.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }

    private static func number(_ bytes: Timestamp, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for index in start..<(start + length) {
            guard let digit = digit(bytes[index]) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// The bytes of a timestamp, indexed from zero.
    private struct Timestamp {
        let bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

        var count: Int { bytes.count }

        subscript(offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }
    }
}
