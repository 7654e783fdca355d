import Foundation

/// The raw facts the console's overview charts are drawn from, for one window of time.
public struct DeliveryActivity: Sendable, Hashable {
    /// One delivery: what was bought, when Apple charged, when the ledger delivered, and by
    /// which path.
    public struct Delivery: Sendable, Hashable {
        /// The product bought.
        public var productId: String
        /// How many units.
        public var quantity: Int
        /// Apple's purchase date.
        public var purchaseDate: Date
        /// When the ledger delivered it.
        public var deliveredAt: Date
        /// The path that delivered it.
        public var source: DeliverySource

        /// Creates a value.
        public init(productId: String, quantity: Int, purchaseDate: Date, deliveredAt: Date, source: DeliverySource) {
            self.productId = productId
            self.quantity = quantity
            self.purchaseDate = purchaseDate
            self.deliveredAt = deliveredAt
            self.source = source
        }
    }

    /// One purchase refunded (wholly or in part) as it stands now.
    public struct RefundedPurchase: Sendable, Hashable {
        /// The product bought.
        public var productId: String
        /// How many units.
        public var quantity: Int
        /// The share refunded, in milliunits of the whole (100,000 is all of it).
        public var refundedShare: Int
        /// When the refund was recorded.
        public var refundedAt: Date

        /// Creates a value.
        public init(productId: String, quantity: Int, refundedShare: Int, refundedAt: Date) {
            self.productId = productId
            self.quantity = quantity
            self.refundedShare = refundedShare
            self.refundedAt = refundedAt
        }
    }

    /// The deliveries in the window, oldest first (at most the limit asked for).
    public var deliveries: [Delivery]
    /// How many purchases each path delivered on each UTC day of the window (its first day
    /// the one `since` falls in), by day then source: every delivery, whatever the limit.
    public var deliveryDays: [DeliveryDayCount]
    /// How many deliveries of the window's UTC days (as ``deliveryDays``) took each span
    /// from Apple's charge to delivery, by bucket (``DeliveryLatencyCount/bucketBounds``),
    /// ascending; buckets without any left out: every delivery, whatever the limit.
    public var latencies: [DeliveryLatencyCount]
    /// When each refund in the window was recorded (``HistoryEventType/refunded`` events).
    public var refunds: [Date]
    /// When each refund reversal in the window was recorded.
    public var reversals: [Date]
    /// The purchases refunded in the window and still refunded, oldest refund first (at
    /// most the limit asked for).
    public var refundedPurchases: [RefundedPurchase]
    /// Webhook messages not yet acknowledged.
    public var outboxBacklog: Int
    /// Of those, the ones whose last attempt failed.
    public var webhookFailures: Int

    /// Creates a value.
    public init(
        deliveries: [Delivery], deliveryDays: [DeliveryDayCount], latencies: [DeliveryLatencyCount], refunds: [Date],
        reversals: [Date],
        refundedPurchases: [RefundedPurchase], outboxBacklog: Int, webhookFailures: Int
    ) {
        self.deliveries = deliveries
        self.deliveryDays = deliveryDays
        self.latencies = latencies
        self.refunds = refunds
        self.reversals = reversals
        self.refundedPurchases = refundedPurchases
        self.outboxBacklog = outboxBacklog
        self.webhookFailures = webhookFailures
    }
}
