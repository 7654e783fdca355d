/// `POST /v1/purchases`: what a device reports after the App Store charged it. Either a
/// StoreKit 2 signed transaction, or a receipt plus the id of the transaction the client
/// claims from it.
struct PurchaseReport: Codable, Hashable, Sendable {
    /// The order the client paid for; required to bind a receipt transaction.
    var orderId: String?
    /// StoreKit 2's `jwsRepresentation`.
    var signedTransaction: String?
    /// The base64 app receipt (StoreKit 1).
    var receipt: String?
    /// The transaction claimed from ``receipt``.
    var transactionId: String?
}
