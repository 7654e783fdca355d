/// `ProductPurchase.purchaseState`'s values, Google's numbers.
///
/// The Play Billing Library's `Purchase.PurchaseState` constants on the device are other
/// numbers (1 purchased, 2 pending); these are the server API's.
public enum PurchaseState {
    /// 0: paid.
    public static let purchased = 0
    /// 1: canceled.
    public static let canceled = 1
    /// 2: pending (not paid yet: deliver nothing, acknowledge nothing).
    public static let pending = 2
}

/// `ProductPurchase.consumptionState`'s values.
public enum ConsumptionState {
    /// 0: yet to be consumed.
    public static let yetToBeConsumed = 0
    /// 1: consumed.
    public static let consumed = 1
}

/// `ProductPurchase.acknowledgementState`'s values.
public enum AcknowledgementState {
    /// 0: yet to be acknowledged.
    public static let yetToBeAcknowledged = 0
    /// 1: acknowledged.
    public static let acknowledged = 1
}
