/// `POST /v1/purchases`: what a device reports after the store charged it. From the App
/// Store, either a StoreKit 2 signed transaction, or a receipt plus the id of the
/// transaction the client claims from it; from Google Play, ``googlePlay``.
struct PurchaseReport: Codable, Hashable, Sendable {
    /// The order the client paid for; required to bind a receipt transaction.
    var orderId: String?
    /// StoreKit 2's `jwsRepresentation`.
    var signedTransaction: String?
    /// The base64 app receipt (StoreKit 1).
    var receipt: String?
    /// The transaction claimed from ``receipt``.
    var transactionId: String?
    /// A Google Play purchase, as the Play Billing Library's `Purchase` names it.
    var googlePlay: GooglePlayReport?
}

/// The Google Play purchase a device reports: nothing here is trusted; the server reads the
/// purchase from the Play Developer API.
struct GooglePlayReport: Codable, Hashable, Sendable {
    /// The one-time product bought.
    var productId: String
    /// `Purchase.getPurchaseToken()`.
    var purchaseToken: String
    /// `Purchase.getOrderId()` (`GPA.…`), when the device has one: it must be Google's.
    var orderId: String?
}

extension GooglePlayReport {
    /// Checks the fields the device sent before anything is asked of Google, naming them
    /// under `path` (`googlePlay`, `googlePlay[3]`).
    ///
    /// - Throws: ``ServerError`` `400` (`invalid_identifier`) for a field the identifier
    ///   rule refuses.
    func checkFields(at path: String) throws {
        try RequestField.identifier(productId, .productId, field: "\(path).productId")
        try RequestField.identifier(purchaseToken, .purchaseToken, field: "\(path).purchaseToken")
        try RequestField.identifier(orderId, .transactionId, field: "\(path).orderId")
    }
}
