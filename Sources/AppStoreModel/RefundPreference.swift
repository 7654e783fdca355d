/// The refund outcome an app would prefer (Apple's `refundPreference` of Send Consumption
/// Information V2).
///
/// Unknown values decode unchanged.
public struct RefundPreference: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the preference.
    public var rawValue: String

    /// Creates a refund preference from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Decline the refund.
    public static let decline: RefundPreference = "DECLINE"
    /// Grant the refund in full.
    public static let grantFull: RefundPreference = "GRANT_FULL"
    /// Grant a prorated refund.
    public static let grantProrated: RefundPreference = "GRANT_PRORATED"

    /// Every value Apple documents.
    public static let documented: Set<RefundPreference> = [.decline, .grantFull, .grantProrated]
}
