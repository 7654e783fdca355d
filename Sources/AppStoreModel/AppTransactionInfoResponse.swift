/// The body of Apple's Get App Transaction Info response
/// (`GET /inApps/v1/transactions/appTransactions/{transactionId}`, App Store Server API
/// 1.17).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct AppTransactionInfoResponse: Hashable, Codable, Sendable {
    /// The customer's app transaction, as a JWS that decodes to a
    /// ``JWSAppTransactionDecodedPayload``.
    public var signedAppTransactionInfo: String?

    /// Creates a response around a signed app transaction.
    public init(signedAppTransactionInfo: String? = nil) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
