/// Why an auto-renewable subscription expired (Apple's `expirationIntent`; verifyReceipt
/// sends the same values as the string `expiration_intent`).
///
/// Unknown values decode unchanged.
public struct ExpirationIntent: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the reason.
    public var rawValue: Int

    /// Creates an expiration intent from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 1: the customer cancelled the subscription.
    public static let customerCancelled: ExpirationIntent = 1
    /// 2: a billing error, e.g. the customer's payment information was no longer valid.
    public static let billingError: ExpirationIntent = 2
    /// 3: the customer did not consent to a price increase that required consent.
    public static let customerDidNotConsentToPriceIncrease: ExpirationIntent = 3
    /// 4: the product was not available for purchase at the time of renewal.
    public static let productNotAvailable: ExpirationIntent = 4
    /// 5: another reason.
    public static let other: ExpirationIntent = 5
}
