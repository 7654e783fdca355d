/// How many purchases of one product and quantity Apple charged on one UTC day, of those
/// delivered from a window's first day on (``LedgerSchema/revenueDays``, `purchase_days`).
public struct PurchaseDayCount: Sendable, Hashable {
    /// The UTC day of Apple's purchase date, counted as ``DeliveryDayCount/day(_:)`` counts.
    public var day: Int
    /// The product bought.
    public var productId: String
    /// How many units each purchase holds.
    public var quantity: Int
    /// How many purchases.
    public var purchases: Int

    /// Creates a value.
    public init(day: Int, productId: String, quantity: Int, purchases: Int) {
        self.day = day
        self.productId = productId
        self.quantity = quantity
        self.purchases = purchases
    }
}
