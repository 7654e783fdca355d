/// One page of a customer's refunded transactions: the body of Apple's Get Refund History
/// response (`GET /inApps/v2/refund/lookup/{transactionId}`).
///
/// A page holds at most 20 transactions, in ascending order of `revocationDate`. While
/// ``hasMore`` is `true`, ask again with ``revision`` for the next page. Property names and
/// JSON keys are Apple's; every field is optional.
public struct RefundHistoryResponse: Hashable, Codable, Sendable {
    /// The refunded transactions, each a JWS that decodes to a
    /// ``JWSTransactionDecodedPayload``; empty when the customer had no refund.
    public var signedTransactions: [String]?
    /// The token to pass as `revision` to get the next page.
    public var revision: String?
    /// Whether the App Store has more refunded transactions after this page.
    public var hasMore: Bool?

    /// Creates a page; every field defaults to absent.
    public init(signedTransactions: [String]? = nil, revision: String? = nil, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
