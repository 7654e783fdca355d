/// The server's acknowledgement of a delivery (`POST /v1/purchases` → 200).
public struct ServerDelivery: Codable, Hashable, Sendable {
    /// `delivered` (this report delivered) or `already_delivered` (an earlier report or
    /// Apple's notification did).
    public var status: String
    /// Apple's transaction id.
    public var transactionId: String?
    /// The order the transaction was bound to, if any.
    public var orderId: String?
    /// What the purchase granted (item → amount).
    public var grants: [String: Int64]
    /// The player's balances after the delivery.
    public var balances: [String: Int64]
    /// Flags the server recorded (`unbound`, …).
    public var flags: [String]
}
