import Foundation

/// How many purchases one path delivered on one UTC day (``LedgerSchema/deliveryDays``).
public struct DeliveryDayCount: Sendable, Hashable {
    /// The UTC day, counted from 1970-01-01 (day 0): the seconds since 1970 divided by
    /// 86,400, rounded down.
    public var day: Int
    /// The path that delivered them.
    public var source: DeliverySource
    /// How many.
    public var deliveries: Int

    /// The UTC day `date` falls in, counted from 1970-01-01 (day 0; earlier days negative):
    /// a UTC day is 86,400 seconds, with no daylight saving time and no leap seconds in
    /// `Date`. Dates beyond a billion days either way count as that far. The same number as
    /// the SQL of ``LedgerSchema/deliveryDays`` gives the date at the ledger's resolution.
    public static func day(_ date: Date) -> Int {
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        return days.isNaN ? 0 : Int(min(max(days, -1e9), 1e9))
    }

    /// Creates a value.
    public init(day: Int, source: DeliverySource, deliveries: Int) {
        self.day = day
        self.source = source
        self.deliveries = deliveries
    }
}
