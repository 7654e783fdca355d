import Foundation

/// The raw facts the console's overview charts are drawn from, for one window of time.
public struct DeliveryActivity: Sendable, Hashable {
    /// How many purchases each path delivered on each UTC day of the window (its first day
    /// the one `since` falls in), by day then source.
    public var deliveryDays: [DeliveryDayCount]
    /// How many deliveries of the window's UTC days (as ``deliveryDays``) took each span
    /// from Apple's charge to delivery, by bucket (``DeliveryLatencyCount/bucketBounds``),
    /// ascending; buckets without any left out.
    public var latencies: [DeliveryLatencyCount]
    /// The purchases delivered in the window's UTC days (as ``deliveryDays``) by the UTC day
    /// of Apple's purchase date (from the window's first day on), product and quantity, in
    /// that order.
    public var purchaseDays: [PurchaseDayCount]
    /// The purchases refunded now whose refund was recorded in the window's UTC days, by day,
    /// product, quantity and share, in that order.
    public var refundDays: [RefundDayCount]
    /// When each refund in the window was recorded (``HistoryEventType/refunded`` events;
    /// at most the limit asked for, oldest first).
    public var refunds: [Date]
    /// When each refund reversal in the window was recorded (as ``refunds``).
    public var reversals: [Date]
    /// Webhook messages not yet acknowledged.
    public var outboxBacklog: Int
    /// Of those, the ones whose last attempt failed.
    public var webhookFailures: Int

    /// Creates a value.
    public init(
        deliveryDays: [DeliveryDayCount], latencies: [DeliveryLatencyCount], purchaseDays: [PurchaseDayCount],
        refundDays: [RefundDayCount], refunds: [Date], reversals: [Date], outboxBacklog: Int, webhookFailures: Int
    ) {
        self.deliveryDays = deliveryDays
        self.latencies = latencies
        self.purchaseDays = purchaseDays
        self.refundDays = refundDays
        self.refunds = refunds
        self.reversals = reversals
        self.outboxBacklog = outboxBacklog
        self.webhookFailures = webhookFailures
    }
}
