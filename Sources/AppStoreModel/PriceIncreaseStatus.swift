/// Whether the customer consented to a subscription price increase (Apple's
/// `priceIncreaseStatus`; verifyReceipt's `price_consent_status` string).
///
/// Unknown values decode unchanged.
public struct PriceIncreaseStatus: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the status.
    public var rawValue: Int

    /// Creates a price increase status from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: the customer has not yet responded to a price increase that needs consent.
    public static let customerHasNotResponded: PriceIncreaseStatus = 0
    /// 1: the customer consented, or was notified of an increase that needs no consent.
    public static let customerConsentedOrWasNotified: PriceIncreaseStatus = 1
}
