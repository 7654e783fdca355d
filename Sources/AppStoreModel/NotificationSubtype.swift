/// Details of the event that some App Store Server Notifications V2 report (Apple's
/// `subtype`).
///
/// Unknown values decode unchanged.
public struct NotificationSubtype: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the subtype.
    public var rawValue: String

    /// Creates a subtype from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// With `SUBSCRIBED`: the first purchase of a subscription in the group.
    public static let initialBuy: NotificationSubtype = "INITIAL_BUY"
    /// With `SUBSCRIBED`: the customer subscribed again to the group.
    public static let resubscribe: NotificationSubtype = "RESUBSCRIBE"
    /// With `DID_CHANGE_RENEWAL_PREF` or `OFFER_REDEEMED`: a downgrade, effective at the
    /// next renewal.
    public static let downgrade: NotificationSubtype = "DOWNGRADE"
    /// With `DID_CHANGE_RENEWAL_PREF` or `OFFER_REDEEMED`: an upgrade, effective at once.
    public static let upgrade: NotificationSubtype = "UPGRADE"
    /// With `DID_CHANGE_RENEWAL_STATUS`: auto-renewal turned on.
    public static let autoRenewEnabled: NotificationSubtype = "AUTO_RENEW_ENABLED"
    /// With `DID_CHANGE_RENEWAL_STATUS`: auto-renewal turned off.
    public static let autoRenewDisabled: NotificationSubtype = "AUTO_RENEW_DISABLED"
    /// With `EXPIRED`: the customer turned auto-renewal off.
    public static let voluntary: NotificationSubtype = "VOLUNTARY"
    /// With `EXPIRED`: the billing retry period ended without a successful charge.
    public static let billingRetry: NotificationSubtype = "BILLING_RETRY"
    /// With `EXPIRED` or `PRICE_INCREASE`: about a price increase.
    public static let priceIncrease: NotificationSubtype = "PRICE_INCREASE"
    /// With `DID_FAIL_TO_RENEW`: the subscription is in its billing grace period.
    public static let gracePeriod: NotificationSubtype = "GRACE_PERIOD"
    /// With `PRICE_INCREASE`: the customer has not yet responded.
    public static let pending: NotificationSubtype = "PENDING"
    /// With `PRICE_INCREASE`: the customer consented, or no consent was needed.
    public static let accepted: NotificationSubtype = "ACCEPTED"
    /// With `DID_RENEW`: a subscription that failed to renew earlier renewed.
    public static let billingRecovery: NotificationSubtype = "BILLING_RECOVERY"
    /// With `EXPIRED`: the product was not for sale when the subscription tried to renew.
    public static let productNotForSale: NotificationSubtype = "PRODUCT_NOT_FOR_SALE"
    /// With `RENEWAL_EXTENSION`: the extension for all subscribers finished; see the
    /// payload's `summary`.
    public static let summary: NotificationSubtype = "SUMMARY"
    /// With `RENEWAL_EXTENSION`: the extension failed for one subscription.
    public static let failure: NotificationSubtype = "FAILURE"
    /// With `EXTERNAL_PURCHASE_TOKEN`: a token was created but not reported.
    public static let unreported: NotificationSubtype = "UNREPORTED"
    /// With `EXTERNAL_PURCHASE_TOKEN`: a reminder to report an active token.
    public static let activeTokenReminder: NotificationSubtype = "ACTIVE_TOKEN_REMINDER"

    /// Every value Apple documents, as listed above.
    public static let documented: Set<NotificationSubtype> = [
        .initialBuy, .resubscribe, .downgrade, .upgrade, .autoRenewEnabled, .autoRenewDisabled, .voluntary,
        .billingRetry, .priceIncrease, .gracePeriod, .pending, .accepted, .billingRecovery, .productNotForSale,
        .summary, .failure, .unreported, .activeTokenReminder,
    ]
}
