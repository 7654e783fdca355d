/// The attribute types of an app receipt's payload (Apple's "Receipt Fields").
public enum ReceiptAttributeType {
    /// 0: the receipt type, e.g. `"Production"` (UTF8String).
    public static let receiptType = 0
    /// 2: the bundle identifier (UTF8String).
    public static let bundleId = 2
    /// 3: the app version (UTF8String).
    public static let appVersion = 3
    /// 4: the opaque value (raw bytes).
    public static let opaqueValue = 4
    /// 5: the SHA-1 hash (raw bytes).
    public static let sha1Hash = 5
    /// 12: the receipt creation date (IA5String, RFC 3339).
    public static let creationDate = 12
    /// 17: one in-app purchase (a nested SET OF ReceiptAttribute); repeated.
    public static let inAppPurchase = 17
    /// 18: the original purchase date (IA5String, RFC 3339).
    public static let originalPurchaseDate = 18
    /// 19: the original app version (UTF8String).
    public static let originalAppVersion = 19
    /// 21: the receipt expiration date (IA5String, RFC 3339).
    public static let expirationDate = 21
}

/// The attribute types inside an in-app purchase record (attribute 17).
public enum InAppAttributeType {
    /// 1701: the quantity (INTEGER).
    public static let quantity = 1701
    /// 1702: the product identifier (UTF8String).
    public static let productId = 1702
    /// 1703: the transaction identifier (UTF8String).
    public static let transactionId = 1703
    /// 1704: the purchase date (IA5String, RFC 3339).
    public static let purchaseDate = 1704
    /// 1705: the original transaction identifier (UTF8String).
    public static let originalTransactionId = 1705
    /// 1706: the original purchase date (IA5String, RFC 3339).
    public static let originalPurchaseDate = 1706
    /// 1708: the subscription expiration date (IA5String, RFC 3339).
    public static let subscriptionExpirationDate = 1708
    /// 1711: the web order line item identifier (INTEGER).
    public static let webOrderLineItemId = 1711
    /// 1712: the cancellation date (IA5String, RFC 3339).
    public static let cancellationDate = 1712
    /// 1713: whether the subscription is in its free trial (INTEGER 0 or 1).
    public static let isTrialPeriod = 1713
    /// 1719: whether the subscription is in an introductory price period (INTEGER 0 or 1).
    public static let isInIntroOfferPeriod = 1719
    /// 1721: the promotional offer identifier (UTF8String).
    public static let promotionalOfferId = 1721
}
