import Foundation

/// One step of a purchase flow, for the server's event log (`POST /v1/events`): support
/// staff read it next to the server's own history.
public struct PurchaseEvent: Codable, Hashable, Sendable {
    /// What happened (`order_created`, `store_purchased`, `report_retried`, …).
    public var name: String
    /// The server's order, once known.
    public var orderId: String?
    /// Apple's transaction, once known.
    public var transactionId: String?
    /// When, in epoch milliseconds on the device's clock.
    public var occurredAt: Int64
    /// Details (`reason`, `attempt`, …).
    public var attributes: [String: String]?

    /// Creates an event.
    public init(
        name: String, orderId: String? = nil, transactionId: String? = nil, occurredAt: Date,
        attributes: [String: String]? = nil
    ) {
        self.name = name
        self.orderId = orderId
        self.transactionId = transactionId
        self.occurredAt = Int64((occurredAt.timeIntervalSince1970 * 1_000).rounded(.down))
        self.attributes = attributes
    }
}
