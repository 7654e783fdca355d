import Foundation

/// A product as the Play side sells it: an id from the emulator's catalog and its kind, a
/// one-time product (consumable or not) or an auto-renewing subscription.
public struct PlayProduct: Hashable, Sendable {
    /// The product id (Play's SKU), the same id the App Store side sells.
    public var productId: String
    /// Whether it is a one-time product.
    public var isOneTime: Bool
    /// A subscription's billing period in seconds (before the emulator's period scale);
    /// `nil` for a product that is neither one-time nor a subscription the Play side sells.
    public var subscriptionPeriod: TimeInterval?
    /// A subscription's grace period in seconds (before the period scale): how long a
    /// subscriber whose renewal payment was declined keeps access
    /// (`SUBSCRIPTION_STATE_IN_GRACE_PERIOD`) before the account hold; `nil` or 0 for none.
    public var gracePeriod: TimeInterval?

    /// Creates a product.
    public init(
        productId: String, isOneTime: Bool, subscriptionPeriod: TimeInterval? = nil, gracePeriod: TimeInterval? = nil
    ) {
        self.productId = productId
        self.isOneTime = isOneTime
        self.subscriptionPeriod = subscriptionPeriod
        self.gracePeriod = gracePeriod
    }
}
