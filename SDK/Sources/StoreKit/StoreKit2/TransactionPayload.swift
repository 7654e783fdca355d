import Foundation

/// A signed transaction's payload, with Apple's field names (JWSTransactionDecodedPayload).
struct TransactionPayload: Decodable {
    var transactionId: String
    var originalTransactionId: String?
    var webOrderLineItemId: String?
    var bundleId: String?
    var productId: String
    var subscriptionGroupIdentifier: String?
    var purchaseDate: Double
    var originalPurchaseDate: Double?
    var expiresDate: Double?
    var quantity: Int?
    var type: String
    var appAccountToken: String?
    var inAppOwnershipType: String?
    var signedDate: Double?
    var revocationReason: Int?
    var revocationDate: Double?
    var isUpgraded: Bool?
    var environment: String?
    var transactionReason: String?
    var price: Int64?
    var currency: String?
    var appTransactionId: String?
    var deviceVerification: String?
    var deviceVerificationNonce: String?
}

extension Date {
    /// A date from Apple's milliseconds since 1970.
    init(milliseconds: Double) {
        self.init(timeIntervalSince1970: milliseconds / 1000)
    }
}
