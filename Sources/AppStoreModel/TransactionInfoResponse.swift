/// The body of Apple's Get Transaction Info response
/// (`GET /inApps/v1/transactions/{transactionId}`).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct TransactionInfoResponse: Hashable, Codable, Sendable {
    /// The transaction, as a JWS that decodes to a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?

    /// Creates a response around a signed transaction.
    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}
