/// A Real-time developer notification: the JSON that Google Play publishes to the app's
/// Cloud Pub/Sub topic, base64 in the push's `message.data` (``PubSubPushEnvelope``).
///
/// It says only that something changed and which purchase: read the purchase from the
/// Android Publisher API before acting on it. Exactly one of the four notification fields
/// is present.
public struct DeveloperNotification: Codable, Hashable, Sendable {
    /// The format's version, `"1.0"`.
    public var version: String
    /// The app's package name.
    public var packageName: String
    /// When the event happened, milliseconds since the epoch, an int64 as a string (as
    /// Google sends it; its reference calls the field a `long`, so decoding takes a JSON
    /// number too).
    public var eventTimeMillis: String
    /// A one-time product was purchased, or a pending purchase was canceled.
    public var oneTimeProductNotification: OneTimeProductNotification?
    /// A subscription changed.
    public var subscriptionNotification: SubscriptionNotification?
    /// A purchase was voided (refunded, charged back, revoked).
    public var voidedPurchaseNotification: VoidedPurchaseNotification?
    /// A test notification, sent from the Play Console (here: the emulator's control API).
    public var testNotification: TestNotification?

    /// Creates a notification.
    public init(
        version: String = "1.0", packageName: String, eventTimeMillis: String,
        oneTimeProductNotification: OneTimeProductNotification? = nil,
        subscriptionNotification: SubscriptionNotification? = nil,
        voidedPurchaseNotification: VoidedPurchaseNotification? = nil, testNotification: TestNotification? = nil
    ) {
        self.version = version
        self.packageName = packageName
        self.eventTimeMillis = eventTimeMillis
        self.oneTimeProductNotification = oneTimeProductNotification
        self.subscriptionNotification = subscriptionNotification
        self.voidedPurchaseNotification = voidedPurchaseNotification
        self.testNotification = testNotification
    }

    /// Decodes a notification; `eventTimeMillis` may be a JSON string of an int64 or a JSON
    /// integer.
    ///
    /// - Throws: `DecodingError` for a missing field, or an `eventTimeMillis` that is
    ///   neither an int64 nor a string of one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(String.self, forKey: .version)
        packageName = try container.decode(String.self, forKey: .packageName)
        if let number = try? container.decode(Int64.self, forKey: .eventTimeMillis) {
            eventTimeMillis = String(number)
        } else {
            let text = try container.decode(String.self, forKey: .eventTimeMillis)
            guard Int64(text) != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .eventTimeMillis, in: container, debugDescription: "eventTimeMillis is not an int64")
            }
            eventTimeMillis = text
        }
        oneTimeProductNotification = try container.decodeIfPresent(
            OneTimeProductNotification.self, forKey: .oneTimeProductNotification)
        subscriptionNotification = try container.decodeIfPresent(
            SubscriptionNotification.self, forKey: .subscriptionNotification)
        voidedPurchaseNotification = try container.decodeIfPresent(
            VoidedPurchaseNotification.self, forKey: .voidedPurchaseNotification)
        testNotification = try container.decodeIfPresent(TestNotification.self, forKey: .testNotification)
    }
}

/// `DeveloperNotification.oneTimeProductNotification`.
public struct OneTimeProductNotification: Codable, Hashable, Sendable {
    /// The format's version, `"1.0"`.
    public var version: String
    /// ``OneTimeProductNotificationType``: 1 purchased, 2 canceled.
    public var notificationType: Int
    /// The purchase's token.
    public var purchaseToken: String
    /// The product id.
    public var sku: String

    /// Creates a notification.
    public init(version: String = "1.0", notificationType: Int, purchaseToken: String, sku: String) {
        self.version = version
        self.notificationType = notificationType
        self.purchaseToken = purchaseToken
        self.sku = sku
    }
}

/// `DeveloperNotification.subscriptionNotification`.
public struct SubscriptionNotification: Codable, Hashable, Sendable {
    /// The format's version, `"1.0"`.
    public var version: String
    /// ``SubscriptionNotificationType``.
    public var notificationType: Int
    /// The subscription's purchase token.
    public var purchaseToken: String
    /// The subscription's product id.
    public var subscriptionId: String

    /// Creates a notification.
    public init(version: String = "1.0", notificationType: Int, purchaseToken: String, subscriptionId: String) {
        self.version = version
        self.notificationType = notificationType
        self.purchaseToken = purchaseToken
        self.subscriptionId = subscriptionId
    }
}

/// `DeveloperNotification.voidedPurchaseNotification`.
public struct VoidedPurchaseNotification: Codable, Hashable, Sendable {
    /// The voided purchase's token.
    public var purchaseToken: String
    /// The voided transaction's order id.
    public var orderId: String
    /// ``VoidedPurchaseProductType``: 1 subscription, 2 one-time product.
    public var productType: Int
    /// ``VoidedPurchaseRefundType``: 1 full, 2 quantity-based partial.
    public var refundType: Int

    /// Creates a notification.
    public init(purchaseToken: String, orderId: String, productType: Int, refundType: Int) {
        self.purchaseToken = purchaseToken
        self.orderId = orderId
        self.productType = productType
        self.refundType = refundType
    }
}

/// `DeveloperNotification.testNotification`.
public struct TestNotification: Codable, Hashable, Sendable {
    /// The format's version, `"1.0"`.
    public var version: String

    /// Creates a test notification.
    public init(version: String = "1.0") {
        self.version = version
    }
}
