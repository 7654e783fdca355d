/// A transaction as the store hands it to the app: Apple charged for it.
public struct StoreTransaction: Codable, Hashable, Sendable {
    /// Apple's transaction id.
    public var transactionId: String
    /// The product bought.
    public var productId: String
    /// The order's token given at purchase, or `nil` when the store dropped it.
    public var appAccountToken: String?
    /// StoreKit 2's `jwsRepresentation`; `nil` on the StoreKit 1 path, which reports the
    /// receipt instead.
    public var signedTransaction: String?

    /// Creates a transaction.
    public init(transactionId: String, productId: String, appAccountToken: String?, signedTransaction: String?) {
        self.transactionId = transactionId
        self.productId = productId
        self.appAccountToken = appAccountToken
        self.signedTransaction = signedTransaction
    }
}
