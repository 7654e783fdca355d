import Foundation
import Ledger

/// `POST /v1/events`: a batch of the device's purchase-flow events.
struct ClientEventBatch: Codable, Hashable, Sendable {
    /// The most events one batch may carry.
    static let maximumCount = 200

    var events: [Event]

    /// One event; `occurredAt` is epoch milliseconds on the device's clock.
    struct Event: Codable, Hashable, Sendable {
        var name: String
        var orderId: String?
        var transactionId: String?
        var occurredAt: Int64
        var attributes: [String: String]?
    }

    /// The events as the ledger stores them, or an explanation of what is wrong.
    func clientEvents() throws(ServerError) -> [ClientEvent] {
        guard events.count <= Self.maximumCount else {
            throw .invalidRequest("at most \(Self.maximumCount) events per batch, not \(events.count)")
        }
        return try events.map { event throws(ServerError) in
            guard !event.name.isEmpty, event.name.utf8.count <= 100 else {
                throw .invalidRequest("an event name must be 1 to 100 bytes")
            }
            return ClientEvent(
                name: event.name, orderId: event.orderId, transactionId: event.transactionId,
                occurredAt: Date(timeIntervalSince1970: Double(event.occurredAt) / 1_000),
                attributes: event.attributes ?? [:])
        }
    }
}
