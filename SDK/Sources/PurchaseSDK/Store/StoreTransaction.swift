/// A transaction as the store hands it to the app: Apple (or Google Play) charged for it.
public struct StoreTransaction: Codable, Hashable, Sendable {
    /// Apple's transaction id; for a Google Play purchase, Google's order id (`GPA.…`).
    public var transactionId: String
    /// The product bought.
    public var productId: String
    /// The order's token given at purchase, or `nil` when the store dropped it.
    public var appAccountToken: String?
    /// StoreKit 2's `jwsRepresentation`; `nil` on the StoreKit 1 path, which reports the
    /// receipt instead.
    public var signedTransaction: String?
    /// The customer's app download transaction for this app (StoreKit's
    /// `appTransactionID`, Apple's `appTransactionId`): the same for every transaction of
    /// the Apple Account. `nil` when the store gave none and the signed transaction carries
    /// none (StoreKit 1, or data signed before Apple added it).
    public var appTransactionId: String?
    /// The Google Play purchase, for a transaction Google Play charged: the pipeline
    /// reports it instead of a signed transaction or a receipt. `nil` for Apple's.
    public var googlePlay: GooglePlayPurchase?

    /// Creates a transaction.
    ///
    /// - Parameter appTransactionId: the store's app transaction id; when `nil`, the one
    ///   `signedTransaction`'s payload carries, if any (read without checking the signature:
    ///   it identifies, the server verifies).
    /// - Parameter googlePlay: the Google Play purchase, for a transaction Google Play
    ///   charged.
    public init(
        transactionId: String, productId: String, appAccountToken: String?, signedTransaction: String?,
        appTransactionId: String? = nil, googlePlay: GooglePlayPurchase? = nil
    ) {
        self.transactionId = transactionId
        self.productId = productId
        self.appAccountToken = appAccountToken
        self.signedTransaction = signedTransaction
        self.googlePlay = googlePlay
        self.appTransactionId =
            appTransactionId ?? signedTransaction.flatMap { SignedTransactionFields($0)?.appTransactionId }
    }
}
