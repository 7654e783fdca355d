import Foundation
import Ledger

/// The facts of one store transaction that verified signed data vouches for: the server's one
/// input to delivery, whatever the store and whatever form the data came in. Apple's
/// verifiers produce it (``VerifiedTransaction+Apple.swift``: a StoreKit 2 signed transaction,
/// an in-app purchase of a verified receipt, or Apple's verifyReceipt answer), in the
/// ledger's words (``PurchaseEnvironment``, ``Ownership``).
struct VerifiedTransaction: Sendable, Hashable {
    /// The store that sold it: with ``transactionId``, the purchase's identity.
    var store: Store
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var quantity: Int
    /// The order binding the app passed to StoreKit, lowercased; receipts do not carry it.
    var appAccountToken: String?
    /// Where the store says the transaction was made.
    var environment: PurchaseEnvironment
    var purchaseDate: Date
    /// Set when Apple refunded or revoked the whole transaction: it is not delivered. A
    /// refund in part leaves the rest standing: the transaction is delivered and the
    /// ledger takes the refunded share back from the recorded notices.
    var revocationDate: Date?
    /// The first purchase of the chain (Apple's `originalPurchaseDate`), when the data says.
    var originalPurchaseDate: Date?
    /// When the subscription period ends (auto-renewable), when the data says.
    var expiresDate: Date?
    /// Whether the holder bought it or a family member shares it; receipts say purchased.
    var ownership: Ownership = .purchased
    /// When Apple signed the data; receipts, which carry no such date, use the purchase date.
    var signedDate: Date
    /// Whether Apple says a higher-level subscription of the chain replaced this one.
    var isUpgraded = false
    /// The chain this one replaces, when the store keys a replacement apart (Google Play's
    /// `linkedPurchaseToken`: an upgrade, a downgrade or a re-subscription makes a new
    /// purchase token naming the old one). Apple's chains need none: an upgrade keeps its
    /// `originalTransactionId`.
    ///
    /// Google's chain stays keyed by each purchase token (``originalTransactionId``), not
    /// by the chain's first token: Google's API, its notifications, its voided purchases and
    /// its acknowledgement all name the token, so every later word from Google finds its
    /// entitlement directly. ``PurchaseDeliverer`` joins the links instead: a new token's
    /// holder is the linked token's holder (one holder per chain), and the linked token's
    /// entitlement is closed once the new one is delivered.
    var linkedOriginalTransactionId: String?
    /// What Apple charged, in milliunits of ``currency``, when the signed data says
    /// (receipts do not).
    var price: Int64?
    /// The ISO 4217 currency of ``price``, when the signed data says.
    var currency: String?
}
