/// The payment mode of a discount offer (Apple's `offerDiscountType`).
///
/// Unknown values decode unchanged.
public struct OfferDiscountType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the payment mode.
    public var rawValue: String

    /// Creates an offer discount type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A free trial.
    public static let freeTrial: OfferDiscountType = "FREE_TRIAL"
    /// A discounted price paid each period for a number of periods.
    public static let payAsYouGo: OfferDiscountType = "PAY_AS_YOU_GO"
    /// A discounted price paid once for the whole offer duration.
    public static let payUpFront: OfferDiscountType = "PAY_UP_FRONT"
    /// A one-time discount on a consumable, non-consumable or non-renewing subscription.
    public static let oneTime: OfferDiscountType = "ONE_TIME"
}
