/// The reason a customer gave when asking for a refund (Apple's
/// `consumptionRequestReason`, sent with a `CONSUMPTION_REQUEST` notification).
///
/// Unknown values decode unchanged.
public struct ConsumptionRequestReason: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the reason.
    public var rawValue: String

    /// Creates a consumption request reason from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer did not mean to make the purchase.
    public static let unintendedPurchase: ConsumptionRequestReason = "UNINTENDED_PURCHASE"
    /// The customer did not receive what they paid for.
    public static let fulfillmentIssue: ConsumptionRequestReason = "FULFILLMENT_ISSUE"
    /// The customer is not satisfied with the purchase.
    public static let unsatisfiedWithPurchase: ConsumptionRequestReason =
        "UNSATISFIED_WITH_PURCHASE"
    /// A legal reason.
    public static let legal: ConsumptionRequestReason = "LEGAL"
    /// Any other reason.
    public static let other: ConsumptionRequestReason = "OTHER"
}
