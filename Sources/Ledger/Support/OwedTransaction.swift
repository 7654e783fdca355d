import Foundation

/// A transaction a store charged for that no player has received: the server learned of it
/// (a notification or the reconciler) but could not tell whose it is, so it waits for the
/// player's report or for support to bind it.
public struct OwedTransaction: Sendable, Hashable {
    /// The store that charged.
    public var store: Store
    /// The store's transaction id.
    public var transactionId: String
    /// The product, as the first record of it says.
    public var productId: String?
    /// Why it waits (the latest record's `reason`, e.g. `unbound_transaction`).
    public var reason: String?
    /// How the server learned of it (the latest record's `source`: `notification`, `reconciler`).
    public var source: String?
    /// When the server first learned of it.
    public var firstSeenAt: Date
    /// When the server last tried to deliver it.
    public var lastSeenAt: Date
    /// How many times the server tried.
    public var attempts: Int
    /// What Apple charged, in milliunits of ``currency``; `nil` when the records do not say
    /// (recorded before the server kept it, or unreadable).
    public var price: Int64?
    /// The ISO 4217 currency of ``price``; `nil` when the records do not say.
    public var currency: String?
    /// When Apple charged; `nil` when the records do not say.
    public var purchaseDate: Date?
    /// The app account token the purchase carried (lowercased), if any.
    public var appAccountToken: String?

    /// Creates a value.
    public init(
        store: Store,
        transactionId: String,
        productId: String?,
        reason: String?,
        source: String?,
        firstSeenAt: Date,
        lastSeenAt: Date,
        attempts: Int,
        price: Int64? = nil,
        currency: String? = nil,
        purchaseDate: Date? = nil,
        appAccountToken: String? = nil
    ) {
        self.store = store
        self.transactionId = transactionId
        self.productId = productId
        self.reason = reason
        self.source = source
        self.firstSeenAt = firstSeenAt
        self.lastSeenAt = lastSeenAt
        self.attempts = attempts
        self.price = price
        self.currency = currency
        self.purchaseDate = purchaseDate
        self.appAccountToken = appAccountToken
    }
}
