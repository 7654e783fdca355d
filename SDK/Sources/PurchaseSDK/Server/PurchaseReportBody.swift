/// What the pipeline reports to `POST /v1/purchases`: the signed transaction (StoreKit 2),
/// or the receipt and the transaction id (StoreKit 1), with the order to bind it to.
struct PurchaseReportBody: Codable, Hashable, Sendable {
    var orderId: String?
    var signedTransaction: String?
    var receipt: String?
    var transactionId: String?
}
