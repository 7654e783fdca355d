/// The statuses of all of a customer's auto-renewable subscriptions in an app: the body of
/// Apple's Get All Subscription Statuses response (`GET /inApps/v1/subscriptions/{transactionId}`).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct StatusResponse: Hashable, Codable, Sendable {
    /// The environment the subscriptions belong to.
    public var environment: AppStoreEnvironment?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple identifier (absent in the sandbox).
    public var appAppleId: Int64?
    /// One item per subscription group the customer subscribed in.
    public var data: [SubscriptionGroupIdentifierItem]?

    /// Creates a response; every field defaults to absent.
    public init(
        environment: AppStoreEnvironment? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        data: [SubscriptionGroupIdentifierItem]? = nil
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}
