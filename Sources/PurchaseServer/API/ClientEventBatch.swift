import Foundation
import Ledger

/// `POST /v1/events`: a batch of the device's purchase-flow events.
///
/// Everything in it is bounded (events per batch, attributes per event, the length of
/// every string, the range of `occurredAt`), so no device can grow a player's history
/// faster than these bounds allow, and the ledger keeps only the latest events per player
/// (``ServerConfiguration/clientEventsPerPlayer``).
struct ClientEventBatch: Codable, Hashable, Sendable {
    /// The most events one batch may carry.
    static let maximumCount = 200
    /// The most attributes one event may carry.
    static let maximumAttributes = 32
    /// The longest event name, attribute key or id, in characters.
    static let maximumNameLength = 128
    /// The longest attribute value, in characters.
    static let maximumValueLength = 1_024
    /// The latest `occurredAt` accepted: 9999-12-31T23:59:59.999Z in epoch milliseconds.
    static let latestOccurredAt: Int64 = 253_402_300_799_999

    var events: [Event]

    /// One event; `occurredAt` is epoch milliseconds on the device's clock.
    struct Event: Codable, Hashable, Sendable {
        var name: String
        var orderId: String?
        var transactionId: String?
        var occurredAt: Int64
        var attributes: [String: String]?
    }

    /// The events as the ledger stores them, or an `invalid_request` naming the first field
    /// out of bounds.
    func clientEvents() throws(ServerError) -> [ClientEvent] {
        guard events.count <= Self.maximumCount else {
            throw .invalidRequest("events: at most \(Self.maximumCount) events per batch, not \(events.count)")
        }
        return try events.enumerated().map { index, event throws(ServerError) in
            try event.clientEvent(field: "events[\(index)]")
        }
    }
}

extension ClientEventBatch.Event {
    /// This event as the ledger stores it, after checking every bound.
    fileprivate func clientEvent(field: String) throws(ServerError) -> ClientEvent {
        typealias Batch = ClientEventBatch
        let names = 1...Batch.maximumNameLength
        try RequestField.check(name, "\(field).name", length: names)
        try RequestField.identifier(orderId, .orderId, field: "\(field).orderId")
        try RequestField.identifier(transactionId, .transactionId, field: "\(field).transactionId")
        guard (0...Batch.latestOccurredAt).contains(occurredAt) else {
            throw .invalidRequest(
                "\(field).occurredAt must be epoch milliseconds from 0 to \(Batch.latestOccurredAt), not \(occurredAt)")
        }
        let attributes = attributes ?? [:]
        guard attributes.count <= Batch.maximumAttributes else {
            throw .invalidRequest("\(field).attributes: at most \(Batch.maximumAttributes) attributes per event")
        }
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            try RequestField.check(key, "\(field).attributes key", length: names)
            try RequestField.check(value, "\(field).attributes.\(key)", length: 0...Batch.maximumValueLength)
        }
        return ClientEvent(
            name: name, orderId: orderId, transactionId: transactionId,
            occurredAt: Date(timeIntervalSince1970: Double(occurredAt) / 1_000), attributes: attributes)
    }
}
