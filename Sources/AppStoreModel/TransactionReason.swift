/// Why a transaction happened: a purchase by the customer or an automatic renewal
/// (Apple's `transactionReason`).
///
/// Unknown values decode unchanged.
public struct TransactionReason: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the reason.
    public var rawValue: String

    /// Creates a transaction reason from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer initiated the purchase (including a subscription upgrade or
    /// cross-grade), or a family member got access through Family Sharing.
    public static let purchase: TransactionReason = "PURCHASE"
    /// The App Store renewed an auto-renewable subscription.
    public static let renewal: TransactionReason = "RENEWAL"
}
