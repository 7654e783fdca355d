/// The Play Billing Library's `BillingFlowParams.SubscriptionUpdateParams.ReplacementMode`
/// constants, which a device purchase replacing a subscription names in
/// ``PlayDevicePurchaseRequest/subscriptionReplacementMode``: Google's numbers.
public enum PlaySubscriptionReplacementMode {
    /// `WITH_TIME_PRORATION`: the new plan starts now, the old plan's unused time credited
    /// (the library's default).
    public static let withTimeProration = 1
    /// `CHARGE_PRORATED_PRICE`: the new plan starts now, the price difference charged.
    public static let chargeProratedPrice = 2
    /// `WITHOUT_PRORATION`: the new plan starts now, its price charged at the next renewal.
    public static let withoutProration = 3
    /// `CHARGE_FULL_PRICE`: the new plan starts now, charged in full.
    public static let chargeFullPrice = 5
    /// `DEFERRED`: the new plan starts when the old one's period ends (not modelled).
    public static let deferred = 6

    /// The modes whose replacement takes effect at once, the ones the emulator models: the
    /// old subscription ends now and the new one starts with a full period. (The money each
    /// mode moves is not modelled: the emulator charges nothing.)
    static let immediate: Set<Int> = [withTimeProration, chargeProratedPrice, withoutProration, chargeFullPrice]
}
