/// What the pipeline reports to `POST /v1/purchases`: the signed transaction (StoreKit 2),
/// the receipt and the transaction id (StoreKit 1), or the Google Play purchase, with the
/// order to bind it to.
struct PurchaseReportBody: Codable, Hashable, Sendable {
    var orderId: String?
    var signedTransaction: String?
    var receipt: String?
    var transactionId: String?
    /// A Google Play purchase: `{"productId", "purchaseToken", "orderId"?}`.
    var googlePlay: GooglePlayPurchase?
}
