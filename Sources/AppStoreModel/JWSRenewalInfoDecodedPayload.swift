import Foundation

/// The payload of signed subscription renewal information (`signedRenewalInfo`), decoded
/// from its JWS.
///
/// Property names and JSON keys are Apple's. Every field is optional because Apple may
/// omit any of them; unknown fields are ignored. Dates are stored as Apple signs them,
/// integer milliseconds since 1970; each has a `Date` accessor named after it with a
/// `Value` suffix (`renewalDate` → ``renewalDateValue``).
public struct JWSRenewalInfoDecodedPayload: Hashable, Codable, Sendable {
    /// Why the subscription expired.
    public var expirationIntent: ExpirationIntent?
    /// The transaction identifier of the subscription's original purchase.
    public var originalTransactionId: String?
    /// The product identifier that renews at the next billing period.
    public var autoRenewProductId: String?
    /// The product identifier of the current subscription.
    public var productId: String?
    /// Whether the subscription renews automatically.
    public var autoRenewStatus: AutoRenewStatus?
    /// Whether the App Store is still trying to renew an expired subscription.
    public var isInBillingRetryPeriod: Bool?
    /// Whether the customer consented to a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends (ms since 1970); see ``gracePeriodExpiresDateValue``.
    public var gracePeriodExpiresDate: Int64?
    /// The type of subscription offer applying to the next renewal.
    public var offerType: OfferType?
    /// The identifier of the offer applying to the next renewal.
    public var offerIdentifier: String?
    /// When the App Store signed this payload (ms since 1970); see ``signedDateValue``.
    public var signedDate: Int64?
    /// The environment the subscription belongs to.
    public var environment: AppStoreEnvironment?
    /// The start of the most recent run of uninterrupted paid subscription periods (ms
    /// since 1970); see ``recentSubscriptionStartDateValue``.
    public var recentSubscriptionStartDate: Int64?
    /// When the subscription next renews (ms since 1970); see ``renewalDateValue``.
    public var renewalDate: Int64?
    /// The ISO 4217 currency code of ``renewalPrice``.
    public var currency: String?
    /// The price of the next renewal in milliunits of ``currency``.
    public var renewalPrice: Int64?
    /// The payment mode of the offer applying to the next renewal.
    public var offerDiscountType: OfferDiscountType?
    /// The win-back offers the customer may redeem, best first.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app passed at purchase time, as signed; see ``appAccountTokenUUID``.
    public var appAccountToken: String?
    /// The identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer applying to the next renewal, as an ISO 8601 duration.
    public var offerPeriod: String?
    /// How the next renewal is billed: all at once or monthly under a 12-month commitment
    /// (App Store Server API 1.21).
    public var renewalBillingPlanType: RenewalBillingPlanType?
    /// What happens when a 12-month commitment ends (App Store Server API 1.21).
    public var commitmentInfo: RenewalCommitmentInfo?

    /// Creates a renewal info payload; every field defaults to absent.
    public init(
        expirationIntent: ExpirationIntent? = nil,
        originalTransactionId: String? = nil,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Int64? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        signedDate: Int64? = nil,
        environment: AppStoreEnvironment? = nil,
        recentSubscriptionStartDate: Int64? = nil,
        renewalDate: Int64? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: String? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        renewalBillingPlanType: RenewalBillingPlanType? = nil,
        commitmentInfo: RenewalCommitmentInfo? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.renewalBillingPlanType = renewalBillingPlanType
        self.commitmentInfo = commitmentInfo
    }
}

extension JWSRenewalInfoDecodedPayload {
    /// ``gracePeriodExpiresDate`` as a `Date`; setting it stores whole milliseconds.
    public var gracePeriodExpiresDateValue: Date? {
        get { EpochMilliseconds.date(gracePeriodExpiresDate) }
        set { gracePeriodExpiresDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``signedDate`` as a `Date`; setting it stores whole milliseconds.
    public var signedDateValue: Date? {
        get { EpochMilliseconds.date(signedDate) }
        set { signedDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``recentSubscriptionStartDate`` as a `Date`; setting it stores whole milliseconds.
    public var recentSubscriptionStartDateValue: Date? {
        get { EpochMilliseconds.date(recentSubscriptionStartDate) }
        set { recentSubscriptionStartDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``renewalDate`` as a `Date`; setting it stores whole milliseconds.
    public var renewalDateValue: Date? {
        get { EpochMilliseconds.date(renewalDate) }
        set { renewalDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``appAccountToken`` parsed as a UUID; `nil` when absent or not a UUID.
    public var appAccountTokenUUID: UUID? { appAccountToken.flatMap(UUID.init(uuidString:)) }
}
