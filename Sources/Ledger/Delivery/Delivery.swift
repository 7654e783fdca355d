import Foundation

/// A verified transaction to deliver: the input of ``LedgerStore/deliver(_:)``.
public struct Delivery: Sendable, Hashable {
    /// The store that sold it: with ``transactionId``, the purchase's identity.
    public var store: Store
    /// The store's id for the transaction; with ``store``, the key that makes delivery
    /// exactly-once.
    public var transactionId: String
    /// The store's id for the chain the transaction belongs to (Apple's original transaction
    /// id): its entitlement's key.
    public var originalTransactionId: String
    /// The player who receives the goods.
    public var playerId: String
    /// The order the transaction is bound to, if any. It must exist and belong to
    /// ``playerId``; the ledger marks it fulfilled.
    public var orderId: String?
    /// The App Store product id purchased.
    public var productId: String
    /// The purchased quantity.
    public var quantity: Int
    /// Where the store says the transaction was made.
    public var environment: PurchaseEnvironment
    /// Which path reported the transaction.
    public var source: DeliverySource
    /// Facts worth flagging (see ``PurchaseFlag``).
    public var flags: Set<String>
    /// The total the player receives (already multiplied by ``quantity``). Amounts must be
    /// positive; may be empty for a product that grants nothing the ledger counts.
    public var grants: Grants
    /// When Apple says the purchase happened.
    public var purchaseDate: Date
    /// What the transaction sets on the entitlement of its original transaction, if the
    /// product unlocks one; `nil` for a consumable.
    public var entitlement: EntitlementGrant?
    /// The chain's holder the delivery was bound by, checked again under the entitlement's
    /// lock (``LedgerError/chainHolderChanged(originalTransactionId:)`` when it changed);
    /// `nil` checks nothing (a product that unlocks no entitlement).
    public var boundByHolder: ChainHolder?

    /// Creates a delivery.
    public init(
        store: Store,
        transactionId: String,
        originalTransactionId: String,
        playerId: String,
        orderId: String? = nil,
        productId: String,
        quantity: Int = 1,
        environment: PurchaseEnvironment,
        source: DeliverySource,
        flags: Set<String> = [],
        grants: Grants,
        purchaseDate: Date,
        entitlement: EntitlementGrant? = nil,
        boundByHolder: ChainHolder? = nil
    ) {
        self.store = store
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.playerId = playerId
        self.orderId = orderId
        self.productId = productId
        self.quantity = quantity
        self.environment = environment
        self.source = source
        self.flags = flags
        self.grants = grants
        self.purchaseDate = purchaseDate
        self.entitlement = entitlement
        self.boundByHolder = boundByHolder
    }
}
