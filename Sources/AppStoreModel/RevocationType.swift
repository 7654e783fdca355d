/// How the App Store revoked a transaction (Apple's `revocationType`, App Store Server
/// API 1.19): a full or prorated refund, or the end of family sharing.
///
/// Unknown values decode unchanged.
public struct RevocationType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the type.
    public var rawValue: String

    /// Creates a revocation type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The App Store refunded the whole transaction.
    public static let refundFull: RevocationType = "REFUND_FULL"
    /// The App Store refunded part of the transaction; `revocationPercentage` says how much.
    public static let refundProrated: RevocationType = "REFUND_PRORATED"
    /// The purchaser stopped sharing the product with their family.
    public static let familyRevoke: RevocationType = "FAMILY_REVOKE"
}
