import Foundation

extension VerifyReceiptResponse {
    /// The pending renewal of one auto-renewable subscription (an element of
    /// `pending_renewal_info`).
    ///
    /// Properties are camelCase; JSON keys are Apple's. Apple sends the codes as strings
    /// (``StringNumber``); read them with the matching open enumeration, e.g.
    /// `AutoRenewStatus(info.autoRenewStatus)`.
    public struct PendingRenewalInfo: Hashable, Codable, Sendable {
        /// The product identifier that renews at the next billing period.
        public var autoRenewProductId: String?
        /// `"1"` when the subscription renews, `"0"` when the user turned renewal off; see
        /// ``AutoRenewStatus``.
        public var autoRenewStatus: StringNumber?
        /// Why the subscription expired, `"1"` to `"5"`; see ``ExpirationIntent``.
        public var expirationIntent: StringNumber?
        /// `"1"` while Apple is still trying to renew, `"0"` when it stopped.
        public var isInBillingRetryPeriod: StringNumber?
        /// The transaction identifier of the subscription's original purchase.
        public var originalTransactionId: String?
        /// The product identifier of the current subscription.
        public var productId: String?
        /// When the billing grace period ends, UTC text; see ``gracePeriodExpiresDateValue``.
        public var gracePeriodExpiresDate: String?
        /// When the billing grace period ends, ms since 1970.
        public var gracePeriodExpiresDateMs: StringNumber?
        /// When the billing grace period ends, Pacific time text.
        public var gracePeriodExpiresDatePst: String?
        /// `"1"` when the user consented to a price increase, `"0"` when not yet; see
        /// ``PriceIncreaseStatus``.
        public var priceConsentStatus: StringNumber?
        /// The reference name of the subscription offer code applying to the renewal.
        public var offerCodeRefName: String?
        /// The identifier of the promotional offer applying to the renewal.
        public var promotionalOfferId: String?

        /// Creates pending renewal info; dates are written in all three of Apple's forms.
        public init(
            autoRenewProductId: String? = nil,
            autoRenewStatus: StringNumber? = nil,
            expirationIntent: StringNumber? = nil,
            isInBillingRetryPeriod: StringNumber? = nil,
            originalTransactionId: String? = nil,
            productId: String? = nil,
            gracePeriodExpiresDateValue: Date? = nil,
            priceConsentStatus: StringNumber? = nil,
            offerCodeRefName: String? = nil,
            promotionalOfferId: String? = nil
        ) {
            self.autoRenewProductId = autoRenewProductId
            self.autoRenewStatus = autoRenewStatus
            self.expirationIntent = expirationIntent
            self.isInBillingRetryPeriod = isInBillingRetryPeriod
            self.originalTransactionId = originalTransactionId
            self.productId = productId
            self.priceConsentStatus = priceConsentStatus
            self.offerCodeRefName = offerCodeRefName
            self.promotionalOfferId = promotionalOfferId
            self.gracePeriodExpiresDateValue = gracePeriodExpiresDateValue
        }

        private enum CodingKeys: String, CodingKey {
            case autoRenewProductId = "auto_renew_product_id"
            case autoRenewStatus = "auto_renew_status"
            case expirationIntent = "expiration_intent"
            case isInBillingRetryPeriod = "is_in_billing_retry_period"
            case originalTransactionId = "original_transaction_id"
            case productId = "product_id"
            case gracePeriodExpiresDate = "grace_period_expires_date"
            case gracePeriodExpiresDateMs = "grace_period_expires_date_ms"
            case gracePeriodExpiresDatePst = "grace_period_expires_date_pst"
            case priceConsentStatus = "price_consent_status"
            case offerCodeRefName = "offer_code_ref_name"
            case promotionalOfferId = "promotional_offer_id"
        }
    }
}

extension VerifyReceiptResponse.PendingRenewalInfo {
    /// `grace_period_expires_date*` as a `Date`; setting it writes all three fields.
    public var gracePeriodExpiresDateValue: Date? {
        get {
            ReceiptDate.date(
                gmt: gracePeriodExpiresDate, milliseconds: gracePeriodExpiresDateMs,
                pst: gracePeriodExpiresDatePst)
        }
        set {
            (gracePeriodExpiresDate, gracePeriodExpiresDateMs, gracePeriodExpiresDatePst) =
                ReceiptDate.fields(newValue)
        }
    }
}
