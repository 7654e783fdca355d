import Foundation

/// An order as the server shows it (`POST /v1/orders`, `GET /v1/players/me/orders/{id}`).
public struct ServerOrder: Codable, Hashable, Sendable {
    /// The server's order id.
    public var orderId: String
    /// The token the store binds the transaction to the order with.
    public var appAccountToken: String
    /// The product ordered.
    public var productId: String
    /// How many.
    public var quantity: Int
    /// `created`, or `fulfilled` once a transaction was delivered for it.
    public var status: String?
    /// The transaction that fulfilled it, once one has.
    public var fulfilledBy: String?
}
