import Foundation

extension SubscriptionPurchaseV2 {
    /// ``startTime`` as a date; `nil` when absent or not RFC 3339.
    public var startDate: Date? { startTime.flatMap(RFC3339.date) }
}

extension SubscriptionPurchaseLineItem {
    /// ``expiryTime`` as a date; `nil` when absent or not RFC 3339.
    public var expiryDate: Date? { expiryTime.flatMap(RFC3339.date) }
}

/// Google's RFC 3339 timestamps (`2026-01-02T03:04:05.678Z`, fractional seconds optional).
enum RFC3339 {
    static func date(_ text: String) -> Date? {
        // A formatter per call: ISO8601DateFormatter is not Sendable.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
