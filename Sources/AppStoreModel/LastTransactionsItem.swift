/// The latest transaction and renewal information of one subscription (Apple's
/// `LastTransactionsItem` in ``SubscriptionGroupIdentifierItem/lastTransactions``).
///
/// Property names and JSON keys are Apple's; every field is optional.
public struct LastTransactionsItem: Hashable, Codable, Sendable {
    /// The status of the subscription.
    public var status: SubscriptionStatus?
    /// The transaction identifier of the subscription's original purchase.
    public var originalTransactionId: String?
    /// The latest transaction, as a JWS that decodes to a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?
    /// The renewal information, as a JWS that decodes to a ``JWSRenewalInfoDecodedPayload``.
    public var signedRenewalInfo: String?

    /// Creates an item; every field defaults to absent.
    public init(
        status: SubscriptionStatus? = nil,
        originalTransactionId: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
