import AppStoreModel
import Foundation

/// One charge the emulated App Store made: the ground truth of what a player paid for.
public struct EmulatedTransaction: Codable, Hashable, Sendable {
    /// The refund state Apple's notifications move a transaction through.
    public enum RefundState: String, Codable, Hashable, Sendable {
        case none, refunded, declined, reversed
        /// Revoked from Family Sharing (REVOKE): taken back, not refunded.
        case revoked
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
    /// Milliseconds since 1970, while refunded or revoked: the latest refund's date.
    public var revocationDate: Int64?
    public var revocationReason: RevocationReason?
    /// While refunded or revoked: `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
    public var revocationType: RevocationType? = nil
    /// While refunded: the share refunded so far, all refunds together, in milliunits
    /// (100,000 is all of it; always so for `REFUND_FULL`).
    public var revocationPercentage: Int? = nil
    /// The `appTransactionId` of the account that bought it (a device in one environment):
    /// the same in all the account's transactions. A journal written before the emulator
    /// kept it gets it when loaded.
    public var appTransactionId: String? = nil
    /// When the App Store last changed what it signs for this transaction (a refund, its
    /// reversal, a revocation, a new app account token), in milliseconds since 1970; `nil`
    /// until then. See ``modifiedOrPurchaseDate``.
    public var modifiedDate: Int64? = nil
    /// The consumption information (Send Consumption Information V2) the developer last sent
    /// for this transaction, if any.
    public var consumption: ConsumptionRequest?
    /// `FAMILY_SHARED` for a family member's copy of a purchase; `nil` (a journal written
    /// before family sharing) or `PURCHASED` for a purchase.
    public var inAppOwnershipType: InAppOwnershipType? = nil
    /// For a family member's copy: the purchaser's `originalTransactionId` it shares.
    public var familySharedFrom: String? = nil
    /// The first purchase of its subscription chain, in milliseconds since 1970; `nil` for
    /// a chain's first transaction (its own purchase date).
    public var originalPurchaseDate: Int64? = nil
    /// `RENEWAL` for a renewal; `nil` (a purchase, an upgrade among them) otherwise.
    public var transactionReason: TransactionReason? = nil
    /// `true` for a subscription period the customer upgraded away from (Apple's
    /// `isUpgraded`); `nil` otherwise, and in a journal written before upgrades set it.
    public var isUpgraded: Bool? = nil
    /// The subscription group of an auto-renewable subscription; `nil` in a journal written
    /// before catalogs named groups (the emulator's one group).
    public var groupIdentifier: String? = nil

    /// Whether Apple currently counts the transaction as refunded, in whole or in part.
    public var isRefunded: Bool { refundState == .refunded }

    /// Whether the transaction is refunded (in whole or in part) or revoked from Family
    /// Sharing: its signed form carries the revocation fields.
    public var isRevoked: Bool { refundState == .refunded || refundState == .revoked }

    /// The date Apple's transaction history sorts by ("recently modified"): the last
    /// change, or the purchase when nothing changed since.
    public var modifiedOrPurchaseDate: Int64 { modifiedDate ?? purchaseDate }

    /// The signed-transaction payload Apple would issue now.
    func payload(bundleId: String, signedAt now: Date) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            transactionId: transactionId,
            originalTransactionId: originalTransactionId,
            webOrderLineItemId: webOrderLineItemId,
            bundleId: bundleId,
            productId: productId,
            subscriptionGroupIdentifier: subscriptionGroupIdentifier,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate ?? purchaseDate,
            expiresDate: expiresDate,
            quantity: quantity,
            type: type,
            appAccountToken: appAccountToken,
            inAppOwnershipType: inAppOwnershipType ?? .purchased,
            signedDate: Int64(now.timeIntervalSince1970 * 1000),
            revocationReason: isRevoked ? revocationReason : nil,
            revocationDate: isRevoked ? revocationDate : nil,
            isUpgraded: isUpgraded == true ? true : nil,
            environment: environment,
            storefront: "USA",
            storefrontId: "143441",
            transactionReason: transactionReason ?? .purchase,
            price: price,
            currency: currency,
            appTransactionId: appTransactionId,
            revocationType: isRevoked ? revocationType : nil,
            revocationPercentage: isRefunded ? revocationPercentage : nil
        )
    }
}
