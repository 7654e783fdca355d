/// The app metadata and signed transaction information of a notification (Apple's `data`
/// object in ``ResponseBodyV2DecodedPayload``).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct NotificationData: Hashable, Codable, Sendable {
    /// The app's Apple identifier (absent in the sandbox).
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's build version (`CFBundleVersion`).
    public var bundleVersion: String?
    /// The environment the notification belongs to.
    public var environment: AppStoreEnvironment?
    /// The transaction, as a JWS that decodes to a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?
    /// The subscription renewal information, as a JWS that decodes to a
    /// ``JWSRenewalInfoDecodedPayload``.
    public var signedRenewalInfo: String?
    /// The status of the subscription, for subscription notifications.
    public var status: SubscriptionStatus?
    /// The reason the customer gave for a refund request (`CONSUMPTION_REQUEST`).
    public var consumptionRequestReason: ConsumptionRequestReason?

    /// Creates notification data; every field defaults to absent.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        environment: AppStoreEnvironment? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: SubscriptionStatus? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
