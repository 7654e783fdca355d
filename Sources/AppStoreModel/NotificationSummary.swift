/// The result of a request to extend the renewal date of all active subscribers (Apple's
/// `summary` object, sent with `RENEWAL_EXTENSION` / `SUMMARY`).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct NotificationSummary: Hashable, Codable, Sendable {
    /// The environment of the request.
    public var environment: AppStoreEnvironment?
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The product identifier of the extended subscriptions.
    public var productId: String?
    /// The identifier the developer gave the extension request.
    public var requestIdentifier: String?
    /// The storefronts (ISO 3166-1 alpha-3) the request applied to.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?
    /// How many subscriptions could not be extended.
    public var failedCount: Int64?

    /// Creates a summary; every field defaults to absent.
    public init(
        environment: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
