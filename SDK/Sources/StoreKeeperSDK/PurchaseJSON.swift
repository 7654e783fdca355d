import Foundation
import PurchaseSDK

/// A settled purchase as the ABI tells it: the `result` of `purchase`, and the `purchase`
/// of an unsolicited `purchase` event.
struct PurchaseJSON: Encodable, Sendable {
    /// `delivered`, `pending`, `cancelled` or `failed`.
    var status: String
    /// Why it failed (only with `failed`).
    var reason: String?
    /// Apple's transaction, once charged.
    var transactionId: String?
    /// The server's order.
    var orderId: String?
    /// The order as the journal keeps it.
    var purchase: RecordJSON

    init(_ outcome: PurchaseOutcome) {
        switch outcome {
        case .delivered: status = "delivered"
        case .pending: status = "pending"
        case .cancelled: status = "cancelled"
        case .failed: status = "failed"
        }
        let record = outcome.record
        if case .failed(let reason) = record.state { self.reason = reason }
        transactionId = record.transactionId
        orderId = record.orderId
        purchase = RecordJSON(record)
    }
}

/// One order of the journal (`pendingDeliveries`, and inside ``PurchaseJSON``).
struct RecordJSON: Encodable, Sendable {
    var id: String
    var playerId: String
    var productId: String
    var quantity: Int
    /// `game`, `promoted`, `store` or `restore`.
    var origin: String
    /// `created`, `purchasing`, `purchased`, `reported`, `delivered`, `finished`,
    /// `pending`, `failed` or `cancelled`.
    var state: String
    var failureReason: String?
    var orderId: String?
    var transactionId: String?
    /// The server's acknowledgement: `status`, `grants`, `balances`, `flags`.
    var delivery: ServerDelivery?
    var transactionFinished: Bool
    var createdAt: Date
    var updatedAt: Date

    init(_ record: PurchaseRecord) {
        id = record.id
        playerId = record.playerId
        productId = record.productId
        quantity = record.quantity
        origin = record.origin.rawValue
        switch record.state {
        case .created: state = "created"
        case .purchasing: state = "purchasing"
        case .purchased: state = "purchased"
        case .reported: state = "reported"
        case .delivered: state = "delivered"
        case .finished: state = "finished"
        case .pending: state = "pending"
        case .cancelled: state = "cancelled"
        case .failed(let reason):
            state = "failed"
            failureReason = reason
        }
        orderId = record.orderId
        transactionId = record.transactionId
        delivery = record.delivery
        transactionFinished = record.transactionFinished
        createdAt = record.createdAt
        updatedAt = record.updatedAt
    }
}
