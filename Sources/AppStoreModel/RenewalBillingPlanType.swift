/// How the customer pays for a subscription's next renewal (Apple's
/// `renewalBillingPlanType`, App Store Server API 1.21): all at once, or monthly under a
/// 12-month commitment.
///
/// Unknown values decode unchanged.
public struct RenewalBillingPlanType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the billing plan.
    public var rawValue: String

    /// Creates a billing plan type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole period's price is billed when the period starts.
    public static let billedUpfront: RenewalBillingPlanType = "BILLED_UPFRONT"
    /// The price is billed each month of a 12-month commitment.
    public static let monthly: RenewalBillingPlanType = "MONTHLY"
}
