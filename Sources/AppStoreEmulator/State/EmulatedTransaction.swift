import AppStoreModel
import Foundation

/// One charge the emulated App Store made: the ground truth of what a player paid for.
public struct EmulatedTransaction: Codable, Hashable, Sendable {
    /// The refund state Apple's notifications move a transaction through.
    public enum RefundState: String, Codable, Hashable, Sendable {
        case none, refunded, declined, reversed
    }

    public var transactionId: String
    public var originalTransactionId: String
    public var deviceId: String
    public var productId: String
    public var type: ProductType
    public var quantity: Int
    /// The token the app passed at purchase (StoreKit 2 `appAccountToken`).
    public var appAccountToken: String?
    public var environment: AppStoreEnvironment
    /// Milliseconds since 1970.
    public var purchaseDate: Int64
    /// Subscriptions only: milliseconds since 1970.
    public var expiresDate: Int64?
    public var webOrderLineItemId: String?
    /// The customer's order id, as on Apple's email receipt (Look Up Order ID).
    public var orderId: String
    public var price: Int64
    public var currency: String
    /// Whether the app finished the transaction.
    public var finished: Bool
    public var refundState: RefundState
    /// Milliseconds since 1970, while refunded.
    public var revocationDate: Int64?
    public var revocationReason: RevocationReason?
    /// The consumption information the developer sent for this transaction, if any.
    public var consumption: ConsumptionRequestV1?

    /// Whether Apple currently counts the transaction as refunded.
    public var isRevoked: Bool { refundState == .refunded }

    /// The signed-transaction payload Apple would issue now.
    func payload(bundleId: String, signedAt now: Date) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            transactionId: transactionId,
            originalTransactionId: originalTransactionId,
            webOrderLineItemId: webOrderLineItemId,
            bundleId: bundleId,
            productId: productId,
            subscriptionGroupIdentifier: type == .autoRenewable ? "emulator.group" : nil,
            purchaseDate: purchaseDate,
            originalPurchaseDate: purchaseDate,
            expiresDate: expiresDate,
            quantity: quantity,
            type: type,
            appAccountToken: appAccountToken,
            inAppOwnershipType: .purchased,
            signedDate: Int64(now.timeIntervalSince1970 * 1000),
            revocationReason: isRevoked ? revocationReason : nil,
            revocationDate: isRevoked ? revocationDate : nil,
            environment: environment,
            storefront: "USA",
            storefrontId: "143441",
            transactionReason: .purchase,
            price: price,
            currency: currency
        )
    }
}
