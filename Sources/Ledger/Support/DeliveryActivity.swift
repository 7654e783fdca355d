import Foundation

/// The raw facts the console's overview charts are drawn from, for one window of time.
public struct DeliveryActivity: Sendable, Hashable {
    /// One delivery: when Apple charged, when the ledger delivered, and by which path.
    public struct Delivery: Sendable, Hashable {
        /// Apple's purchase date.
        public var purchaseDate: Date
        /// When the ledger delivered it.
        public var deliveredAt: Date
        /// The path that delivered it.
        public var source: DeliverySource

        /// Creates a value.
        public init(purchaseDate: Date, deliveredAt: Date, source: DeliverySource) {
            self.purchaseDate = purchaseDate
            self.deliveredAt = deliveredAt
            self.source = source
        }
    }

    /// The deliveries in the window, oldest first (at most the limit asked for).
    public var deliveries: [Delivery]
    /// When each refund in the window was recorded (``HistoryEventType/refunded`` events).
    public var refunds: [Date]
    /// When each refund reversal in the window was recorded.
    public var reversals: [Date]
    /// Webhook messages not yet acknowledged.
    public var outboxBacklog: Int
    /// Of those, the ones whose last attempt failed.
    public var webhookFailures: Int

    /// Creates a value.
    public init(
        deliveries: [Delivery], refunds: [Date], reversals: [Date], outboxBacklog: Int, webhookFailures: Int
    ) {
        self.deliveries = deliveries
        self.refunds = refunds
        self.reversals = reversals
        self.outboxBacklog = outboxBacklog
        self.webhookFailures = webhookFailures
    }
}
