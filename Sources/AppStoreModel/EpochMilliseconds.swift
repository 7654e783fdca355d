import Foundation

/// Conversions between `Date` and the integer milliseconds since 1970 that Apple uses in
/// signed payloads (`purchaseDate`, `signedDate`, …) and in verifyReceipt's `*_ms` fields.
enum EpochMilliseconds {
    /// The date `milliseconds` after 1970-01-01 00:00:00 UTC; `nil` for `nil`.
    static func date(_ milliseconds: Int64?) -> Date? {
        milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// The date as whole milliseconds since 1970, rounded to the nearest millisecond so
    /// that `date(milliseconds(d))` gives back the same number; `nil` for `nil` or a date
    /// outside `Int64`'s range.
    static func milliseconds(_ date: Date?) -> Int64? {
        guard let date else { return nil }
        return Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded())
    }
}
