/// The app and its customer's signed app transaction (Apple's `appData` object, sent with
/// `RESCIND_CONSENT`, App Store Server Notifications 2.19).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct AppData: Hashable, Codable, Sendable {
    /// The app's Apple identifier.
    public var appAppleId: Int64?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The environment the notification applies to.
    public var environment: AppStoreEnvironment?
    /// The customer's app transaction, signed by the App Store (a JWS whose payload is a
    /// ``JWSAppTransactionDecodedPayload``).
    public var signedAppTransactionInfo: String?

    /// Creates app data; every field defaults to absent.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        environment: AppStoreEnvironment? = nil,
        signedAppTransactionInfo: String? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
