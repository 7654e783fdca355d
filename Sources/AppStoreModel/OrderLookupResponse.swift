/// The body of Apple's Look Up Order ID response (`GET /inApps/v1/lookup/{orderId}`): the
/// in-app purchases of the order a customer found on their email receipt.
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct OrderLookupResponse: Hashable, Codable, Sendable {
    /// Whether the order id was found.
    public var status: OrderLookupStatus?
    /// The order's in-app purchases, each a JWS that decodes to a
    /// ``JWSTransactionDecodedPayload``.
    public var signedTransactions: [String]?

    /// Creates a response; every field defaults to absent.
    public init(status: OrderLookupStatus? = nil, signedTransactions: [String]? = nil) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}
