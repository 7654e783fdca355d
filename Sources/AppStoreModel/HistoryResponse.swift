/// One page of a customer's transaction history for an app: the body of Apple's Get
/// Transaction History response (`GET /inApps/v2/history/{transactionId}`).
///
/// A page holds at most 20 transactions. While ``hasMore`` is `true`, ask again with
/// ``revision`` for the next page. Property names and JSON keys are Apple's; every field
/// is optional.
public struct HistoryResponse: Hashable, Codable, Sendable {
    /// The token to pass as `revision` to get the next page; worth storing to resume later.
    public var revision: String?
    /// Whether the App Store has more transactions after this page.
    public var hasMore: Bool?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// The app's Apple identifier (absent in the sandbox).
    public var appAppleId: Int64?
    /// The environment the transactions belong to.
    public var environment: AppStoreEnvironment?
    /// The transactions, each a JWS that decodes to a ``JWSTransactionDecodedPayload``.
    public var signedTransactions: [String]?

    /// Creates a page; every field defaults to absent.
    public init(
        revision: String? = nil,
        hasMore: Bool? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment? = nil,
        signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}
