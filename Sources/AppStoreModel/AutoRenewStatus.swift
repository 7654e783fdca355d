/// Whether an auto-renewable subscription will renew at the end of its period (Apple's
/// `autoRenewStatus`; verifyReceipt sends the same values as the string
/// `auto_renew_status`).
///
/// Unknown values decode unchanged.
public struct AutoRenewStatus: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the status.
    public var rawValue: Int

    /// Creates an auto-renew status from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: the customer turned automatic renewal off.
    public static let off: AutoRenewStatus = 0
    /// 1: the subscription renews at the end of the current period.
    public static let on: AutoRenewStatus = 1
}
