/// A subscription purchase as `purchases.subscriptionsv2.get` answers it, Google's field
/// names and shape (the fields the emulator gives; Google's others are left out).
public struct SubscriptionPurchaseV2: Codable, Hashable, Sendable {
    /// Google's `kind` of this resource.
    public static let kindValue = "androidpublisher#subscriptionPurchaseV2"

    /// `androidpublisher#subscriptionPurchaseV2`.
    public var kind: String
    /// The user's billing country or region when the subscription was granted (ISO 3166-1
    /// alpha-2).
    public var regionCode: String?
    /// The items bought; one per base plan (the emulator's subscriptions have one).
    public var lineItems: [SubscriptionPurchaseLineItem]
    /// When the subscription was granted, RFC 3339 in UTC.
    public var startTime: String?
    /// ``SubscriptionState``: `SUBSCRIPTION_STATE_ACTIVE`, `…_CANCELED`, `…_EXPIRED`, ….
    public var subscriptionState: String
    /// The latest order's id: the first order's `GPA.…`, then `GPA.…..0`, `..1` per renewal.
    public var latestOrderId: String?
    /// The purchase token this one replaced (an upgrade, a re-subscription).
    public var linkedPurchaseToken: String?
    /// Present (an empty object) for a license tester's purchase.
    public var testPurchase: TestPurchase?
    /// ``SubscriptionAcknowledgementState``.
    public var acknowledgementState: String
    /// The app's ids for the user, from `BillingFlowParams`.
    public var externalAccountIdentifiers: ExternalAccountIdentifiers?

    /// Creates a subscription purchase.
    public init(
        kind: String = Self.kindValue, regionCode: String? = nil, lineItems: [SubscriptionPurchaseLineItem],
        startTime: String? = nil, subscriptionState: String, latestOrderId: String? = nil,
        linkedPurchaseToken: String? = nil, testPurchase: TestPurchase? = nil, acknowledgementState: String,
        externalAccountIdentifiers: ExternalAccountIdentifiers? = nil
    ) {
        self.kind = kind
        self.regionCode = regionCode
        self.lineItems = lineItems
        self.startTime = startTime
        self.subscriptionState = subscriptionState
        self.latestOrderId = latestOrderId
        self.linkedPurchaseToken = linkedPurchaseToken
        self.testPurchase = testPurchase
        self.acknowledgementState = acknowledgementState
        self.externalAccountIdentifiers = externalAccountIdentifiers
    }
}

/// `SubscriptionPurchaseV2.lineItems[]`.
public struct SubscriptionPurchaseLineItem: Codable, Hashable, Sendable {
    /// The subscription's product id.
    public var productId: String
    /// When the item expires (or renews), RFC 3339 in UTC.
    public var expiryTime: String?
    /// Present for an auto-renewing base plan.
    public var autoRenewingPlan: AutoRenewingPlan?
    /// The base plan and offer bought.
    public var offerDetails: OfferDetails?
    /// The latest successful order of this item.
    public var latestSuccessfulOrderId: String?

    /// Creates a line item.
    public init(
        productId: String, expiryTime: String? = nil, autoRenewingPlan: AutoRenewingPlan? = nil,
        offerDetails: OfferDetails? = nil, latestSuccessfulOrderId: String? = nil
    ) {
        self.productId = productId
        self.expiryTime = expiryTime
        self.autoRenewingPlan = autoRenewingPlan
        self.offerDetails = offerDetails
        self.latestSuccessfulOrderId = latestSuccessfulOrderId
    }
}

/// `SubscriptionPurchaseLineItem.autoRenewingPlan`.
public struct AutoRenewingPlan: Codable, Hashable, Sendable {
    /// Whether the subscription renews at ``SubscriptionPurchaseLineItem/expiryTime``;
    /// false once canceled.
    public var autoRenewEnabled: Bool?

    /// Creates a plan.
    public init(autoRenewEnabled: Bool?) {
        self.autoRenewEnabled = autoRenewEnabled
    }
}

/// `SubscriptionPurchaseLineItem.offerDetails`.
public struct OfferDetails: Codable, Hashable, Sendable {
    /// The base plan's id.
    public var basePlanId: String
    /// The offer's id, when an offer was used.
    public var offerId: String?
    /// The offer's tags.
    public var offerTags: [String]?

    /// Creates offer details.
    public init(basePlanId: String, offerId: String? = nil, offerTags: [String]? = nil) {
        self.basePlanId = basePlanId
        self.offerId = offerId
        self.offerTags = offerTags
    }
}

/// `SubscriptionPurchaseV2.externalAccountIdentifiers`.
public struct ExternalAccountIdentifiers: Codable, Hashable, Sendable {
    /// `BillingFlowParams.setObfuscatedAccountId`.
    public var obfuscatedExternalAccountId: String?
    /// `BillingFlowParams.setObfuscatedProfileId`.
    public var obfuscatedExternalProfileId: String?

    /// Creates identifiers.
    public init(obfuscatedExternalAccountId: String? = nil, obfuscatedExternalProfileId: String? = nil) {
        self.obfuscatedExternalAccountId = obfuscatedExternalAccountId
        self.obfuscatedExternalProfileId = obfuscatedExternalProfileId
    }
}

/// `SubscriptionPurchaseV2.testPurchase`: no fields; its presence marks a test purchase.
public struct TestPurchase: Codable, Hashable, Sendable {
    /// Creates the marker.
    public init() {}
}

/// `SubscriptionPurchaseV2.subscriptionState`'s values, Google's names.
public enum SubscriptionState {
    /// Paid for and not yet renewed or lapsed.
    public static let active = "SUBSCRIPTION_STATE_ACTIVE"
    /// Canceled: access lasts until the expiry time; it does not renew.
    public static let canceled = "SUBSCRIPTION_STATE_CANCELED"
    /// Expired (lapsed after a cancellation, or revoked).
    public static let expired = "SUBSCRIPTION_STATE_EXPIRED"
    /// Waiting for a slow payment.
    public static let pending = "SUBSCRIPTION_STATE_PENDING"
    /// In the grace period after a failed renewal.
    public static let inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
    /// On account hold after the grace period.
    public static let onHold = "SUBSCRIPTION_STATE_ON_HOLD"
    /// Paused by the user.
    public static let paused = "SUBSCRIPTION_STATE_PAUSED"
}

/// `SubscriptionPurchaseV2.acknowledgementState`'s values, Google's names.
public enum SubscriptionAcknowledgementState {
    /// Not acknowledged yet.
    public static let pending = "ACKNOWLEDGEMENT_STATE_PENDING"
    /// Acknowledged.
    public static let acknowledged = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
}

/// The body of `purchases.subscriptionsv2.revoke`.
public struct RevokeSubscriptionPurchaseRequest: Codable, Hashable, Sendable {
    /// How the user is refunded.
    public var revocationContext: RevocationContext?

    /// Creates a request.
    public init(revocationContext: RevocationContext?) {
        self.revocationContext = revocationContext
    }
}

/// `RevokeSubscriptionPurchaseRequest.revocationContext`: exactly one refund type.
public struct RevocationContext: Codable, Hashable, Sendable {
    /// The latest charge is refunded in full (an empty object).
    public var fullRefund: [String: String]?
    /// A share of the latest charge for the time left is refunded (an empty object).
    public var proratedRefund: [String: String]?

    /// Creates a context.
    public init(fullRefund: [String: String]? = nil, proratedRefund: [String: String]? = nil) {
        self.fullRefund = fullRefund
        self.proratedRefund = proratedRefund
    }
}
