import Foundation

/// Times as Google's JSON writes them.
enum PlayTime {
    /// RFC 3339 in UTC with milliseconds (`2026-11-29T08:00:00.123Z`), as Google's
    /// Timestamp fields and Pub/Sub's `publishTime`.
    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
