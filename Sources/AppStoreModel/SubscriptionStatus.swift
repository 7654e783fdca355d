/// The status of an auto-renewable subscription (Apple's `status` field, e.g. in a
/// notification's `data`).
///
/// Unknown values decode unchanged.
public struct SubscriptionStatus: OpenEnumeration, ExpressibleByIntegerLiteral {
    /// Apple's integer for the status.
    public var rawValue: Int

    /// Creates a subscription status from Apple's integer.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 1: the subscription is active.
    public static let active: SubscriptionStatus = 1
    /// 2: the subscription has expired.
    public static let expired: SubscriptionStatus = 2
    /// 3: the subscription is in the billing retry period.
    public static let billingRetry: SubscriptionStatus = 3
    /// 4: the subscription is in the billing grace period.
    public static let billingGracePeriod: SubscriptionStatus = 4
    /// 5: the subscription was revoked (refunded or lost through Family Sharing).
    public static let revoked: SubscriptionStatus = 5
}
