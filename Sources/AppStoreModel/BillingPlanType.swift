/// How the customer pays for a subscription period (Apple's `billingPlanType` of a signed
/// transaction, App Store Server API 1.21): all at once, or monthly under a 12-month
/// commitment.
///
/// Unknown values decode unchanged.
public struct BillingPlanType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the billing plan.
    public var rawValue: String

    /// Creates a billing plan type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole period's price was billed when the period started.
    public static let billedUpfront: BillingPlanType = "BILLED_UPFRONT"
    /// The price is billed each month of a 12-month commitment.
    public static let monthly: BillingPlanType = "MONTHLY"
}
