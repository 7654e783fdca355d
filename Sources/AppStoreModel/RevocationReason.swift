/// Why the App Store refunded or revoked a transaction (Apple's `revocationReason`; the
/// same values appear as verifyReceipt's `cancellation_reason` string).
///
/// Unknown values decode unchanged.
public struct RevocationReason: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the reason.
    public var rawValue: Int

    /// Creates a revocation reason from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: refunded for another reason, e.g. an accidental purchase.
    public static let refundedForOtherReason: RevocationReason = 0
    /// 1: refunded because of an actual or perceived issue within the app.
    public static let refundedDueToIssue: RevocationReason = 1
}
