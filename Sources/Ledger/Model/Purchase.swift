import AppStoreModel
import Foundation

/// A delivered App Store transaction, as the ledger recorded it the first time it was
/// delivered. Only ``status``, ``refundedAt`` and ``refundReason`` change afterwards.
public struct Purchase: Sendable, Hashable, Codable {
    /// Apple's transaction id (unique).
    public var transactionId: String
    /// Apple's original transaction id.
    public var originalTransactionId: String
    /// The player who received the goods.
    public var playerId: String
    /// The order the transaction fulfilled, if it was bound to one.
    public var orderId: String?
    /// The App Store product id.
    public var productId: String
    /// The purchased quantity.
    public var quantity: Int
    /// The App Store environment.
    public var environment: AppStoreEnvironment
    /// The path that delivered it first.
    public var source: DeliverySource
    /// Flags recorded at delivery (see ``PurchaseFlag``).
    public var flags: Set<String>
    /// What was granted.
    public var grants: Grants
    /// Delivered, or refunded.
    public var status: PurchaseStatus
    /// When Apple says the purchase happened.
    public var purchaseDate: Date
    /// When the ledger delivered it.
    public var deliveredAt: Date
    /// When the grant was last reversed, while ``status`` is ``PurchaseStatus/refunded``.
    public var refundedAt: Date?
    /// Why the grant was reversed, while ``status`` is ``PurchaseStatus/refunded``.
    public var refundReason: String?

    /// Creates a purchase value.
    public init(
        transactionId: String,
        originalTransactionId: String,
        playerId: String,
        orderId: String?,
        productId: String,
        quantity: Int,
        environment: AppStoreEnvironment,
        source: DeliverySource,
        flags: Set<String>,
        grants: Grants,
        status: PurchaseStatus,
        purchaseDate: Date,
        deliveredAt: Date,
        refundedAt: Date? = nil,
        refundReason: String? = nil
    ) {
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
        self.refundedAt = refundedAt
        self.refundReason = refundReason
    }
}
