import Foundation

/// One verifyReceipt date in the three forms Apple sends side by side.
///
/// verifyReceipt writes each date three times, under three keys:
/// - `purchase_date`: `"2024-02-23 10:11:12 Etc/GMT"` (``gmt``),
/// - `purchase_date_ms`: `"1708683072000"` (``milliseconds``),
/// - `purchase_date_pst`: `"2024-02-23 02:11:12 America/Los_Angeles"` (``pst``, Pacific
///   time, daylight saving time included despite the name).
///
/// The response types keep the three fields under Apple's keys and offer a computed
/// `Date?` accessor built on this type (e.g. `purchaseDateValue` for `purchase_date*`).
/// Create one from a `Date` to produce all three forms exactly as Apple formats them;
/// read ``date`` to get the `Date` back, preferably from the milliseconds.
public struct ReceiptDate: Hashable, Codable, Sendable {
    /// The date in UTC, e.g. `"2024-02-23 10:11:12 Etc/GMT"`.
    public var gmt: String?
    /// Milliseconds since 1970, e.g. `"1708683072000"`.
    public var milliseconds: StringNumber?
    /// The date in Pacific time, e.g. `"2024-02-23 02:11:12 America/Los_Angeles"`.
    public var pst: String?

    /// Creates a receipt date from the three forms as Apple sent them.
    public init(gmt: String? = nil, milliseconds: StringNumber? = nil, pst: String? = nil) {
        self.gmt = gmt
        self.milliseconds = milliseconds
        self.pst = pst
    }

    /// Creates the three forms of `date`, as Apple formats them. The two text forms have
    /// whole seconds; the milliseconds keep the sub-second part.
    public init(_ date: Date) {
        let milliseconds = EpochMilliseconds.milliseconds(date) ?? 0
        let seconds = Self.floorDivide(milliseconds, by: 1000)
        let wholeSeconds = Date(timeIntervalSince1970: Double(seconds))
        self.gmt = Self.format(wholeSeconds, in: Self.gmtZone, named: Self.gmtZoneName)
        self.milliseconds = StringNumber(milliseconds)
        self.pst = Self.format(wholeSeconds, in: Self.pacificZone, named: Self.pacificZoneName)
    }

    /// The date: from ``milliseconds`` when it holds an integer, otherwise parsed from
    /// ``gmt``, then from ``pst``; `nil` when no form can be read.
    public var date: Date? {
        if let milliseconds = milliseconds?.int64Value {
            return EpochMilliseconds.date(milliseconds)
        }
        return gmt.flatMap(Self.parse) ?? pst.flatMap(Self.parse)
    }

    /// The date the three fields describe (see ``date``); `nil` when none can be read.
    ///
    /// - Parameters:
    ///   - gmt: the `x` field, e.g. `purchase_date`.
    ///   - milliseconds: the `x_ms` field.
    ///   - pst: the `x_pst` field.
    public static func date(gmt: String?, milliseconds: StringNumber?, pst: String?) -> Date? {
        ReceiptDate(gmt: gmt, milliseconds: milliseconds, pst: pst).date
    }

    /// The three fields for `date`, or three `nil`s for `nil`; for assigning all three of
    /// a response's fields at once.
    ///
    /// - Parameter date: the date to format, or `nil` to clear the fields.
    /// - Returns: the `x`, `x_ms` and `x_pst` values.
    public static func fields(_ date: Date?) -> (
        gmt: String?, milliseconds: StringNumber?, pst: String?
    ) {
        guard let date else { return (nil, nil, nil) }
        let value = ReceiptDate(date)
        return (value.gmt, value.milliseconds, value.pst)
    }

    /// Parses Apple's text form `"yyyy-MM-dd HH:mm:ss Zone"`, where Zone is a time zone
    /// identifier such as `Etc/GMT` or `America/Los_Angeles` (UTC when missing).
    ///
    /// - Parameter text: the date as verifyReceipt writes it.
    /// - Returns: the date, or `nil` when the text does not have that form.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let day = parts[0].split(separator: "-").map { Int($0) }
        let time = parts[1].split(separator: ":").map { Int($0) }
        guard day.count == 3, time.count == 3,
            case let numbers = (day + time).compactMap({ $0 }), numbers.count == 6
        else { return nil }
        let zone = parts.count == 3 ? TimeZone(identifier: String(parts[2])) : gmtZone
        guard let zone else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: numbers[0], month: numbers[1], day: numbers[2],
            hour: numbers[3], minute: numbers[4], second: numbers[5])
        guard let date = calendar.date(from: components) else { return nil }
        // Reject out-of-range fields (month 13, 25:00) that the calendar would roll over.
        let check = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: date)
        let roundTrip = [check.year, check.month, check.day, check.hour, check.minute, check.second]
        guard roundTrip == numbers.map(Optional.some) else { return nil }
        return date
    }

    private static let gmtZoneName = "Etc/GMT"
    private static let pacificZoneName = "America/Los_Angeles"
    private static let gmtZone = TimeZone(identifier: gmtZoneName) ?? .gmt
    /// Pacific time; a fixed UTC-8 only if the system knows no time zone data at all.
    private static let pacificZone =
        TimeZone(identifier: pacificZoneName) ?? TimeZone(secondsFromGMT: -8 * 3600) ?? .gmt

    private static func format(_ date: Date, in zone: TimeZone, named name: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2)) \(name)"
    }

    private static func floorDivide(_ value: Int64, by divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    private enum CodingKeys: String, CodingKey {
        case gmt = "date"
        case milliseconds = "date_ms"
        case pst = "date_pst"
    }
}
