import Foundation

/// An order as the server created it (`POST /v1/orders`).
public struct ServerOrder: Codable, Hashable, Sendable {
    /// The server's order id.
    public var orderId: String
    /// The token the store binds the transaction to the order with.
    public var appAccountToken: String
    /// The product ordered.
    public var productId: String
    /// How many.
    public var quantity: Int
}
