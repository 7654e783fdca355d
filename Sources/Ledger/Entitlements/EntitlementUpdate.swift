import Foundation

/// A change of an entitlement's state without a new delivered transaction (renewal info,
/// expiry, refund, revocation), for ``EntitlementStore/updateEntitlement(_:)``.
public struct EntitlementUpdate: Codable, Hashable, Sendable {
    /// The store that sold the chain: with ``originalTransactionId``, the entitlement's key.
    public var store: Store
    /// The store's id for the chain.
    public var originalTransactionId: String
    /// The backing transaction, when Apple's data names it; `nil` keeps the recorded one.
    public var transactionId: String?
    /// The backing product, when Apple's data names it; `nil` keeps the recorded one.
    public var productId: String?
    /// The new state.
    public var state: EntitlementState
    /// The new end; applied only when ``setsUntil``.
    public var until: Date?
    /// Whether ``until`` replaces the recorded end (`nil` then makes it permanent).
    public var setsUntil: Bool
    /// The renewal intent; `nil` keeps the recorded one.
    public var autoRenew: Bool?
    /// The product the subscription renews into; `nil` keeps the recorded one.
    public var autoRenewProductId: String?
    /// When the store signed the data (Apple's `signedDate`): an update older than the recorded data changes
    /// nothing.
    public var signedAt: Date
    /// Why (the notification's type and subtype, or `"reconciler"`), for the history and
    /// the webhook.
    public var reason: String

    /// Creates an update.
    public init(
        store: Store,
        originalTransactionId: String,
        transactionId: String? = nil,
        productId: String? = nil,
        state: EntitlementState,
        until: Date? = nil,
        setsUntil: Bool = false,
        autoRenew: Bool? = nil,
        autoRenewProductId: String? = nil,
        signedAt: Date,
        reason: String
    ) {
        self.store = store
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.productId = productId
        self.state = state
        self.until = until
        self.setsUntil = setsUntil
        self.autoRenew = autoRenew
        self.autoRenewProductId = autoRenewProductId
        self.signedAt = signedAt
        self.reason = reason
    }
}
