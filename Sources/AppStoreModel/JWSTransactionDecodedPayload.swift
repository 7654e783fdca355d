import Foundation

/// The payload of a signed transaction (`signedTransactionInfo`, StoreKit 2's
/// `Transaction.jwsRepresentation`), decoded from its JWS.
///
/// Property names and JSON keys are Apple's. Every field is optional because Apple may
/// omit any of them; unknown fields are ignored. Dates are stored as Apple signs them,
/// integer milliseconds since 1970 (so re-encoding gives the same numbers); each has a
/// `Date` accessor named after it with a `Value` suffix (`purchaseDate` → ``purchaseDateValue``).
public struct JWSTransactionDecodedPayload: Hashable, Codable, Sendable {
    /// The unique identifier of this transaction; the key for delivering it exactly once.
    public var transactionId: String?
    /// The transaction identifier of the original purchase (the first transaction of a
    /// subscription; the same as `transactionId` for a consumable).
    public var originalTransactionId: String?
    /// The identifier of subscription purchase events across devices, renewals included.
    public var webOrderLineItemId: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product identifier of the In-App Purchase.
    public var productId: String?
    /// The identifier of the subscription group the subscription belongs to.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the customer (ms since 1970); see ``purchaseDateValue``.
    public var purchaseDate: Int64?
    /// When the original purchase was made (ms since 1970); see ``originalPurchaseDateValue``.
    public var originalPurchaseDate: Int64?
    /// When the subscription expires or renews (ms since 1970); see ``expiresDateValue``.
    public var expiresDate: Int64?
    /// The number of consumable products purchased.
    public var quantity: Int?
    /// The product type.
    public var type: ProductType?
    /// The UUID the app passed at purchase time to bind the transaction to its own
    /// account or order, as signed (normally lowercase); see ``appAccountTokenUUID``.
    public var appAccountToken: String?
    /// Whether the customer bought the product or has it through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType?
    /// When the App Store signed this payload (ms since 1970); see ``signedDateValue``.
    public var signedDate: Int64?
    /// Why the App Store refunded or revoked the transaction.
    public var revocationReason: RevocationReason?
    /// When the App Store refunded or revoked the transaction (ms since 1970); see
    /// ``revocationDateValue``.
    public var revocationDate: Int64?
    /// Whether the customer upgraded to another subscription that replaces this one.
    public var isUpgraded: Bool?
    /// The type of subscription offer applied.
    public var offerType: OfferType?
    /// The identifier of the promotional offer or offer code applied.
    public var offerIdentifier: String?
    /// The environment the transaction belongs to.
    public var environment: AppStoreEnvironment?
    /// The three-letter code of the App Store storefront (ISO 3166-1 alpha-3), e.g. `USA`.
    public var storefront: String?
    /// Apple's identifier of the storefront.
    public var storefrontId: String?
    /// Whether the customer purchased or the App Store renewed.
    public var transactionReason: TransactionReason?
    /// The price in milliunits of ``currency`` (e.g. 990 for 0.99). Not for accounting.
    public var price: Int64?
    /// The ISO 4217 currency code of ``price``.
    public var currency: String?
    /// The payment mode of the offer applied.
    public var offerDiscountType: OfferDiscountType?
    /// The identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer applied, as an ISO 8601 duration such as `P1M`.
    public var offerPeriod: String?
    /// How the App Store revoked the transaction: a full or prorated refund, or the end of
    /// family sharing (App Store Server API 1.19).
    public var revocationType: RevocationType?
    /// The share of the transaction refunded or revoked, in milliunits: 100,000 is all of
    /// it (App Store Server API 1.19); see ``revokedShare``.
    public var revocationPercentage: Int?
    /// How the customer pays for this subscription period (App Store Server API 1.21).
    public var billingPlanType: BillingPlanType?
    /// Where a monthly subscription with a 12-month commitment stands (App Store Server
    /// API 1.21).
    public var commitmentInfo: TransactionCommitmentInfo?

    /// Creates a transaction payload; every field defaults to absent.
    public init(
        transactionId: String? = nil,
        originalTransactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Int64? = nil,
        originalPurchaseDate: Int64? = nil,
        expiresDate: Int64? = nil,
        quantity: Int? = nil,
        type: ProductType? = nil,
        appAccountToken: String? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        signedDate: Int64? = nil,
        revocationReason: RevocationReason? = nil,
        revocationDate: Int64? = nil,
        isUpgraded: Bool? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        environment: AppStoreEnvironment? = nil,
        storefront: String? = nil,
        storefrontId: String? = nil,
        transactionReason: TransactionReason? = nil,
        price: Int64? = nil,
        currency: String? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: RevocationType? = nil,
        revocationPercentage: Int? = nil,
        billingPlanType: BillingPlanType? = nil,
        commitmentInfo: TransactionCommitmentInfo? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.price = price
        self.currency = currency
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
    }
}

extension JWSTransactionDecodedPayload {
    /// ``purchaseDate`` as a `Date`; setting it stores whole milliseconds.
    public var purchaseDateValue: Date? {
        get { EpochMilliseconds.date(purchaseDate) }
        set { purchaseDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``originalPurchaseDate`` as a `Date`; setting it stores whole milliseconds.
    public var originalPurchaseDateValue: Date? {
        get { EpochMilliseconds.date(originalPurchaseDate) }
        set { originalPurchaseDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``expiresDate`` as a `Date`; setting it stores whole milliseconds.
    public var expiresDateValue: Date? {
        get { EpochMilliseconds.date(expiresDate) }
        set { expiresDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``signedDate`` as a `Date`; setting it stores whole milliseconds.
    public var signedDateValue: Date? {
        get { EpochMilliseconds.date(signedDate) }
        set { signedDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``revocationDate`` as a `Date`; setting it stores whole milliseconds.
    public var revocationDateValue: Date? {
        get { EpochMilliseconds.date(revocationDate) }
        set { revocationDate = EpochMilliseconds.milliseconds(newValue) }
    }

    /// ``appAccountToken`` parsed as a UUID; `nil` when absent or not a UUID.
    public var appAccountTokenUUID: UUID? { appAccountToken.flatMap(UUID.init(uuidString:)) }

    /// Whether the App Store refunded or revoked the transaction (a revocation date or
    /// reason is present). A revoked transaction must not be delivered.
    public var isRevoked: Bool { revocationDate != nil || revocationReason != nil }

    /// The revoked share in milliunits (100,000 is the whole transaction), or `nil` when
    /// the transaction is not revoked. A revocation without a valid ``revocationPercentage``
    /// (Apple's payloads before API 1.18, or a full refund) counts as the whole
    /// transaction; a percentage outside 0...100,000 is clamped into it.
    public var revokedShare: Int? {
        guard isRevoked else { return nil }
        guard revocationType == .refundProrated, let percentage = revocationPercentage else {
            return Milliunits.whole
        }
        return min(max(percentage, 0), Milliunits.whole)
    }
}
