import Foundation

/// One step of the device's purchase flow, as the client SDK logs it (e.g.
/// `purchase_started`, `journal_written`, `report_failed`), sent in batches.
///
/// Stored in the player's history as a ``HistoryEventType/clientEvent`` whose detail holds
/// the attributes plus `name` and `occurredAt` (epoch milliseconds, device clock); those
/// two keys win over attributes of the same name.
public struct ClientEvent: Sendable, Hashable, Codable {
    /// The event's name.
    public var name: String
    /// The order it concerns, if any.
    public var orderId: String?
    /// The transaction it concerns, if any.
    public var transactionId: String?
    /// When it happened on the device (device clock: untrusted, kept for reading).
    public var occurredAt: Date
    /// Free-form details.
    public var attributes: [String: String]

    /// Creates a client event.
    public init(
        name: String,
        orderId: String? = nil,
        transactionId: String? = nil,
        occurredAt: Date,
        attributes: [String: String] = [:]
    ) {
        self.name = name
        self.orderId = orderId
        self.transactionId = transactionId
        self.occurredAt = occurredAt
        self.attributes = attributes
    }
}
