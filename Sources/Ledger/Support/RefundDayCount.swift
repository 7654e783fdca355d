/// How many purchases of one product and quantity, refunded in one share as they stand now,
/// had that refund recorded on one UTC day (``LedgerSchema/revenueDays``, `refund_days`).
public struct RefundDayCount: Sendable, Hashable {
    /// The UTC day of the refund, counted as ``DeliveryDayCount/day(_:)`` counts.
    public var day: Int
    /// The product bought.
    public var productId: String
    /// How many units each purchase holds.
    public var quantity: Int
    /// The share refunded, in milliunits of the whole (100,000 is all of it).
    public var refundedShare: Int
    /// How many purchases.
    public var purchases: Int

    /// Creates a value.
    public init(day: Int, productId: String, quantity: Int, refundedShare: Int, purchases: Int) {
        self.day = day
        self.productId = productId
        self.quantity = quantity
        self.refundedShare = refundedShare
        self.purchases = purchases
    }
}
