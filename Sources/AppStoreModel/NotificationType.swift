/// The event an App Store Server Notification V2 reports (Apple's `notificationType`).
///
/// Some types come with a ``NotificationSubtype`` that refines the event. Unknown values
/// decode unchanged, so a notification type Apple adds later never fails to decode.
public struct NotificationType: OpenEnumeration, ExpressibleByStringLiteral {
    /// Apple's string for the notification type.
    public var rawValue: String

    /// Creates a notification type from Apple's string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer subscribed (subtype `INITIAL_BUY` or `RESUBSCRIBE`).
    public static let subscribed: NotificationType = "SUBSCRIBED"
    /// The customer changed their subscription plan (subtype `UPGRADE`, `DOWNGRADE`, or
    /// none when they went back to the current plan).
    public static let didChangeRenewalPref: NotificationType = "DID_CHANGE_RENEWAL_PREF"
    /// The customer turned auto-renewal on or off (subtype `AUTO_RENEW_ENABLED` or
    /// `AUTO_RENEW_DISABLED`).
    public static let didChangeRenewalStatus: NotificationType = "DID_CHANGE_RENEWAL_STATUS"
    /// The customer redeemed a promotional offer, offer code or win-back offer.
    public static let offerRedeemed: NotificationType = "OFFER_REDEEMED"
    /// The subscription renewed (subtype `BILLING_RECOVERY` after a failed renewal).
    public static let didRenew: NotificationType = "DID_RENEW"
    /// The subscription expired (subtype `VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE` or
    /// `PRODUCT_NOT_FOR_SALE`).
    public static let expired: NotificationType = "EXPIRED"
    /// The subscription failed to renew because of a billing issue (subtype
    /// `GRACE_PERIOD` while service continues).
    public static let didFailToRenew: NotificationType = "DID_FAIL_TO_RENEW"
    /// The billing grace period ended without a renewal.
    public static let gracePeriodExpired: NotificationType = "GRACE_PERIOD_EXPIRED"
    /// The system informed the customer of a price increase (subtype `PENDING` or
    /// `ACCEPTED`).
    public static let priceIncrease: NotificationType = "PRICE_INCREASE"
    /// The App Store refunded a transaction: take back what it delivered.
    public static let refund: NotificationType = "REFUND"
    /// The App Store declined a refund the customer asked for.
    public static let refundDeclined: NotificationType = "REFUND_DECLINED"
    /// The customer asked for a refund; Apple asks for consumption information within
    /// 12 hours.
    public static let consumptionRequest: NotificationType = "CONSUMPTION_REQUEST"
    /// The App Store extended one subscription's renewal date at the developer's request.
    public static let renewalExtended: NotificationType = "RENEWAL_EXTENDED"
    /// A Family Sharing purchase is no longer available to this family member.
    public static let revoke: NotificationType = "REVOKE"
    /// A test notification requested through the App Store Server API.
    public static let test: NotificationType = "TEST"
    /// The progress of a renewal date extension for all subscribers (subtype `SUMMARY`
    /// or `FAILURE`).
    public static let renewalExtension: NotificationType = "RENEWAL_EXTENSION"
    /// The App Store reversed a refund: deliver again what the refund took back.
    public static let refundReversed: NotificationType = "REFUND_REVERSED"
    /// An external purchase token that was not reported (subtype `UNREPORTED`).
    public static let externalPurchaseToken: NotificationType = "EXTERNAL_PURCHASE_TOKEN"
    /// The customer bought a consumable, non-consumable or non-renewing subscription.
    public static let oneTimeCharge: NotificationType = "ONE_TIME_CHARGE"
    /// Subscription metadata changed (Advanced Commerce API).
    public static let metadataUpdate: NotificationType = "METADATA_UPDATE"
    /// A subscription migrated to the Advanced Commerce API.
    public static let migration: NotificationType = "MIGRATION"
    /// A subscription price changed (Advanced Commerce API).
    public static let priceChange: NotificationType = "PRICE_CHANGE"
    /// The customer withdrew consent for sharing data with the developer.
    public static let rescindConsent: NotificationType = "RESCIND_CONSENT"

    /// Every value Apple documents, as listed above.
    public static let documented: Set<NotificationType> = [
        .subscribed, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didRenew, .expired,
        .didFailToRenew, .gracePeriodExpired, .priceIncrease, .refund, .refundDeclined, .consumptionRequest,
        .renewalExtended, .revoke, .test, .renewalExtension, .refundReversed, .externalPurchaseToken,
        .oneTimeCharge, .metadataUpdate, .migration, .priceChange, .rescindConsent,
    ]
}
