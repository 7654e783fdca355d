import Foundation

extension VerifyReceiptResponse {
    /// One in-app purchase transaction in a verifyReceipt response: an element of the
    /// receipt's `in_app` or of `latest_receipt_info`.
    ///
    /// Properties are camelCase; JSON keys are Apple's. Apple sends the numbers and flags
    /// as strings (``StringNumber``, ``StringBool``). Each date is three stored fields
    /// (`x`, `x_ms`, `x_pst`) plus a `Date?` accessor named after the field with a `Value` suffix
    /// (`purchase_date*` → ``purchaseDateValue``).
    public struct InApp: Hashable, Codable, Sendable {
        /// The number of consumable products purchased, e.g. `"1"`.
        public var quantity: StringNumber?
        /// The product identifier.
        public var productId: String?
        /// The unique identifier of the transaction.
        public var transactionId: String?
        /// The transaction identifier of the original purchase.
        public var originalTransactionId: String?
        /// When the App Store charged the user, UTC text; see ``purchaseDateValue``.
        public var purchaseDate: String?
        /// When the App Store charged the user, ms since 1970.
        public var purchaseDateMs: StringNumber?
        /// When the App Store charged the user, Pacific time text.
        public var purchaseDatePst: String?
        /// When the original purchase was made, UTC text; see ``originalPurchaseDateValue``.
        public var originalPurchaseDate: String?
        /// When the original purchase was made, ms since 1970.
        public var originalPurchaseDateMs: StringNumber?
        /// When the original purchase was made, Pacific time text.
        public var originalPurchaseDatePst: String?
        /// When the subscription expires or renews, UTC text; see ``expiresDateValue``.
        public var expiresDate: String?
        /// When the subscription expires or renews, ms since 1970.
        public var expiresDateMs: StringNumber?
        /// When the subscription expires or renews, Pacific time text.
        public var expiresDatePst: String?
        /// The identifier of subscription purchase events across devices.
        public var webOrderLineItemId: String?
        /// Whether the subscription period is a free trial, `"true"` or `"false"`.
        public var isTrialPeriod: StringBool?
        /// Whether the subscription period is an introductory price period.
        public var isInIntroOfferPeriod: StringBool?
        /// Whether the transaction was cancelled because of an upgrade.
        public var isUpgraded: StringBool?
        /// When Apple refunded the transaction, UTC text; see ``cancellationDateValue``.
        public var cancellationDate: String?
        /// When Apple refunded the transaction, ms since 1970.
        public var cancellationDateMs: StringNumber?
        /// When Apple refunded the transaction, Pacific time text.
        public var cancellationDatePst: String?
        /// Why Apple refunded the transaction: `"1"` an issue in the app, `"0"` another
        /// reason; read it with ``RevocationReason/init(_:)``.
        public var cancellationReason: StringNumber?
        /// Whether the user bought the product or has it through Family Sharing.
        public var inAppOwnershipType: InAppOwnershipType?
        /// The identifier of the subscription group.
        public var subscriptionGroupIdentifier: String?
        /// The identifier of the promotional offer redeemed.
        public var promotionalOfferId: String?
        /// The reference name of the subscription offer code redeemed.
        public var offerCodeRefName: String?
        /// The UUID the app passed at purchase time; see ``appAccountTokenUUID``.
        public var appAccountToken: String?

        /// Creates a transaction; dates are written in all three of Apple's forms.
        public init(
            quantity: StringNumber? = nil,
            productId: String? = nil,
            transactionId: String? = nil,
            originalTransactionId: String? = nil,
            purchaseDateValue: Date? = nil,
            originalPurchaseDateValue: Date? = nil,
            expiresDateValue: Date? = nil,
            webOrderLineItemId: String? = nil,
            isTrialPeriod: StringBool? = nil,
            isInIntroOfferPeriod: StringBool? = nil,
            isUpgraded: StringBool? = nil,
            cancellationDateValue: Date? = nil,
            cancellationReason: StringNumber? = nil,
            inAppOwnershipType: InAppOwnershipType? = nil,
            subscriptionGroupIdentifier: String? = nil,
            promotionalOfferId: String? = nil,
            offerCodeRefName: String? = nil,
            appAccountToken: String? = nil
        ) {
            self.quantity = quantity
            self.productId = productId
            self.transactionId = transactionId
            self.originalTransactionId = originalTransactionId
            self.webOrderLineItemId = webOrderLineItemId
            self.isTrialPeriod = isTrialPeriod
            self.isInIntroOfferPeriod = isInIntroOfferPeriod
            self.isUpgraded = isUpgraded
            self.cancellationReason = cancellationReason
            self.inAppOwnershipType = inAppOwnershipType
            self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
            self.promotionalOfferId = promotionalOfferId
            self.offerCodeRefName = offerCodeRefName
            self.appAccountToken = appAccountToken
            self.purchaseDateValue = purchaseDateValue
            self.originalPurchaseDateValue = originalPurchaseDateValue
            self.expiresDateValue = expiresDateValue
            self.cancellationDateValue = cancellationDateValue
        }

        private enum CodingKeys: String, CodingKey {
            case quantity
            case productId = "product_id"
            case transactionId = "transaction_id"
            case originalTransactionId = "original_transaction_id"
            case purchaseDate = "purchase_date"
            case purchaseDateMs = "purchase_date_ms"
            case purchaseDatePst = "purchase_date_pst"
            case originalPurchaseDate = "original_purchase_date"
            case originalPurchaseDateMs = "original_purchase_date_ms"
            case originalPurchaseDatePst = "original_purchase_date_pst"
            case expiresDate = "expires_date"
            case expiresDateMs = "expires_date_ms"
            case expiresDatePst = "expires_date_pst"
            case webOrderLineItemId = "web_order_line_item_id"
            case isTrialPeriod = "is_trial_period"
            case isInIntroOfferPeriod = "is_in_intro_offer_period"
            case isUpgraded = "is_upgraded"
            case cancellationDate = "cancellation_date"
            case cancellationDateMs = "cancellation_date_ms"
            case cancellationDatePst = "cancellation_date_pst"
            case cancellationReason = "cancellation_reason"
            case inAppOwnershipType = "in_app_ownership_type"
            case subscriptionGroupIdentifier = "subscription_group_identifier"
            case promotionalOfferId = "promotional_offer_id"
            case offerCodeRefName = "offer_code_ref_name"
            case appAccountToken = "app_account_token"
        }
    }
}

extension VerifyReceiptResponse.InApp {
    /// `purchase_date*` as a `Date`; setting it writes all three fields.
    public var purchaseDateValue: Date? {
        get { ReceiptDate.date(gmt: purchaseDate, milliseconds: purchaseDateMs, pst: purchaseDatePst) }
        set { (purchaseDate, purchaseDateMs, purchaseDatePst) = ReceiptDate.fields(newValue) }
    }

    /// `original_purchase_date*` as a `Date`; setting it writes all three fields.
    public var originalPurchaseDateValue: Date? {
        get {
            ReceiptDate.date(
                gmt: originalPurchaseDate, milliseconds: originalPurchaseDateMs,
                pst: originalPurchaseDatePst)
        }
        set {
            (originalPurchaseDate, originalPurchaseDateMs, originalPurchaseDatePst) =
                ReceiptDate.fields(newValue)
        }
    }

    /// `expires_date*` as a `Date`; setting it writes all three fields.
    public var expiresDateValue: Date? {
        get { ReceiptDate.date(gmt: expiresDate, milliseconds: expiresDateMs, pst: expiresDatePst) }
        set { (expiresDate, expiresDateMs, expiresDatePst) = ReceiptDate.fields(newValue) }
    }

    /// `cancellation_date*` as a `Date`; setting it writes all three fields.
    public var cancellationDateValue: Date? {
        get {
            ReceiptDate.date(
                gmt: cancellationDate, milliseconds: cancellationDateMs, pst: cancellationDatePst)
        }
        set {
            (cancellationDate, cancellationDateMs, cancellationDatePst) = ReceiptDate.fields(
                newValue)
        }
    }

    /// ``appAccountToken`` parsed as a UUID; `nil` when absent or not a UUID.
    public var appAccountTokenUUID: UUID? { appAccountToken.flatMap(UUID.init(uuidString:)) }

    /// Whether Apple refunded or revoked the transaction (a cancellation date or reason
    /// is present). A cancelled transaction must not be delivered.
    public var isCancelled: Bool { cancellationDate != nil || cancellationDateMs != nil || cancellationReason != nil }
}
