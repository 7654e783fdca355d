import Foundation

/// A player's intent to buy, created before the App Store purchase starts.
///
/// The order's ``appAccountToken`` travels through the App Store inside the signed
/// transaction, which is how the server binds a transaction to the player who ordered it.
public struct Order: Sendable, Hashable, Codable {
    /// The order's id (a UUID string).
    public var orderId: String
    /// The player who placed the order.
    public var playerId: String
    /// The App Store product id ordered.
    public var productId: String
    /// How many units were ordered.
    public var quantity: Int
    /// The UUID string handed to StoreKit as `appAccountToken`; unique across all orders.
    /// Stored lowercased, as Apple echoes it.
    public var appAccountToken: String
    /// Whether a transaction has fulfilled the order.
    public var status: OrderStatus
    /// When the order was created.
    public var createdAt: Date
    /// When the order stops being offered to new purchases.
    public var expiresAt: Date
    /// The transaction that fulfilled the order, once one has.
    public var fulfilledBy: String?

    /// Creates an order value.
    public init(
        orderId: String,
        playerId: String,
        productId: String,
        quantity: Int = 1,
        appAccountToken: String,
        status: OrderStatus = .created,
        createdAt: Date,
        expiresAt: Date,
        fulfilledBy: String? = nil
    ) {
        self.orderId = orderId
        self.playerId = playerId
        self.productId = productId
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.status = status
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.fulfilledBy = fulfilledBy
    }
}
