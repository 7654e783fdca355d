import Foundation

/// An app receipt as decoded from its signed PKCS#7 container (StoreKit 1).
///
/// Field names follow Apple's "Receipt Fields" documentation; ASN.1 attribute types
/// are given on each property. Attributes that Apple does not document, or that this
/// type does not model, are skipped by the decoder.
public struct AppReceipt: Hashable, Codable, Sendable {
    /// Type 0: the receipt's environment as Apple writes it, e.g. `"Production"` or
    /// `"ProductionSandbox"`. Undocumented by Apple but present in every receipt.
    public var receiptType: String?
    /// Type 2: the app's bundle identifier.
    public var bundleId: String
    /// Type 2, as the raw DER bytes of the attribute value; part of the SHA-1 hash input.
    public var bundleIdData: Data
    /// Type 3: the app's version number (`CFBundleVersion`).
    public var appVersion: String
    /// Type 4: an opaque value used, with the bundle id and device id, to compute the hash.
    public var opaqueValue: Data
    /// Type 5: SHA-1 hash of device id, opaque value and bundle id data.
    public var sha1Hash: Data
    /// Type 12: when the receipt was created; the chain is validated at this date.
    public var creationDate: Date
    /// Type 19: the version of the app that the user originally purchased.
    public var originalAppVersion: String?
    /// Type 18: when the user originally purchased the app.
    public var originalPurchaseDate: Date?
    /// Type 21: when the receipt expires (Volume Purchase Program only).
    public var expirationDate: Date?
    /// Type 17, repeated: the in-app purchases the receipt holds.
    public var inAppPurchases: [InAppPurchase]

    /// Creates a receipt from its fields.
    public init(
        receiptType: String? = nil,
        bundleId: String,
        bundleIdData: Data? = nil,
        appVersion: String,
        opaqueValue: Data = Data(),
        sha1Hash: Data = Data(),
        creationDate: Date,
        originalAppVersion: String? = nil,
        originalPurchaseDate: Date? = nil,
        expirationDate: Date? = nil,
        inAppPurchases: [InAppPurchase] = []
    ) {
        self.receiptType = receiptType
        self.bundleId = bundleId
        self.bundleIdData = bundleIdData ?? Data()
        self.appVersion = appVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.creationDate = creationDate
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.expirationDate = expirationDate
        self.inAppPurchases = inAppPurchases
    }
}

/// One in-app purchase inside an app receipt (receipt attribute type 17).
///
/// ASN.1 attribute types are given on each property.
public struct InAppPurchase: Hashable, Codable, Sendable {
    /// Type 1701: the number of items purchased.
    public var quantity: Int
    /// Type 1702: the product identifier.
    public var productId: String
    /// Type 1703: the transaction identifier.
    public var transactionId: String
    /// Type 1705: the transaction identifier of the original purchase.
    public var originalTransactionId: String
    /// Type 1704: when the App Store charged the user.
    public var purchaseDate: Date
    /// Type 1706: when the original purchase was made.
    public var originalPurchaseDate: Date?
    /// Type 1708: when an auto-renewable subscription expires.
    public var subscriptionExpirationDate: Date?
    /// Type 1712: when Apple refunded the transaction or the user upgraded.
    public var cancellationDate: Date?
    /// Type 1711: the subscription purchase event id across devices.
    public var webOrderLineItemId: Int64?
    /// Type 1713: whether a subscription is in its free-trial period.
    public var isTrialPeriod: Bool?
    /// Type 1719: whether a subscription is in an introductory price period.
    public var isInIntroOfferPeriod: Bool?
    /// Type 1721: the promotional offer identifier the user redeemed.
    public var promotionalOfferId: String?

    /// Creates an in-app purchase from its fields.
    public init(
        quantity: Int,
        productId: String,
        transactionId: String,
        originalTransactionId: String,
        purchaseDate: Date,
        originalPurchaseDate: Date? = nil,
        subscriptionExpirationDate: Date? = nil,
        cancellationDate: Date? = nil,
        webOrderLineItemId: Int64? = nil,
        isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil,
        promotionalOfferId: String? = nil
    ) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.subscriptionExpirationDate = subscriptionExpirationDate
        self.cancellationDate = cancellationDate
        self.webOrderLineItemId = webOrderLineItemId
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferId = promotionalOfferId
    }
}
