import Foundation

/// A delivered store transaction, as the ledger recorded it the first time it was
/// delivered. Only ``status``, ``refundedShare``, ``refundedAt`` and ``refundReason`` change
/// afterwards.
public struct Purchase: Sendable, Hashable, Codable {
    /// The store that sold it.
    public var store: Store
    /// The store's id for the transaction (unique in ``store``).
    public var transactionId: String
    /// The store's id for the transaction's chain (Apple's original transaction id).
    public var originalTransactionId: String
    /// The player who received the goods.
    public var playerId: String
    /// The order the transaction fulfilled, if it was bound to one.
    public var orderId: String?
    /// The App Store product id.
    public var productId: String
    /// The purchased quantity.
    public var quantity: Int
    /// Where the store says the purchase was made.
    public var environment: PurchaseEnvironment
    /// The path that delivered it first.
    public var source: DeliverySource
    /// Flags recorded at delivery (see ``PurchaseFlag``).
    public var flags: Set<String>
    /// What was granted.
    public var grants: Grants
    /// Delivered (perhaps refunded in part: see ``refundedShare``), or refunded in whole.
    public var status: PurchaseStatus
    /// How much of the purchase Apple has refunded, as Apple's latest word says, in
    /// milliunits: 0 (none) to 100,000 (all of it, ``PurchaseStatus/refunded``). The ledger
    /// has taken back that share of each item of ``grants``, rounded down
    /// (``RefundShare``).
    public var refundedShare: Int
    /// When Apple says the purchase happened.
    public var purchaseDate: Date
    /// When the ledger delivered it.
    public var deliveredAt: Date
    /// When the refunded share last grew, while ``refundedShare`` is above 0.
    public var refundedAt: Date?
    /// Why the refunded share last grew, while ``refundedShare`` is above 0.
    public var refundReason: String?

    /// Creates a purchase value.
    public init(
        store: Store,
        transactionId: String,
        originalTransactionId: String,
        playerId: String,
        orderId: String?,
        productId: String,
        quantity: Int,
        environment: PurchaseEnvironment,
        source: DeliverySource,
        flags: Set<String>,
        grants: Grants,
        status: PurchaseStatus,
        purchaseDate: Date,
        deliveredAt: Date,
        refundedShare: Int = 0,
        refundedAt: Date? = nil,
        refundReason: String? = nil
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
        self.status = status
        self.purchaseDate = purchaseDate
        self.deliveredAt = deliveredAt
        self.refundedShare = refundedShare
        self.refundedAt = refundedAt
        self.refundReason = refundReason
    }
}
