import Foundation
import Ledger

/// `POST /v1/admin/grants`: support compensation.
struct ManualGrantRequest: Codable, Hashable, Sendable {
    var playerId: String
    var grants: Grants
    var reason: String
    /// Who grants, for the audit trail (support staff's name); "admin" when absent.
    var actor: String?
}

/// The answer to a manual grant.
struct ManualGrantAnswer: Codable, Hashable, Sendable {
    var entries: [LedgerEntry]
    var balances: [String: Int64]
    /// Items left below zero, reported rather than hidden.
    var negativeBalances: [String: Int64]
}

/// `POST /v1/admin/lookup-order`: Look Up Order ID with Apple, then deliver what is owed.
struct OrderLookupRequest: Codable, Hashable, Sendable {
    /// The order id on the customer's App Store email receipt.
    var appleOrderId: String
    /// Who receives transactions that carry no order binding.
    var playerId: String?
}

/// The answer to an order lookup: Apple's status and one answer per transaction.
struct OrderLookupAnswer: Codable, Hashable, Sendable {
    var appleOrderId: String
    /// 0 valid, 1 invalid (Apple's `OrderLookupStatus`).
    var status: Int
    var transactions: [PurchaseAnswer]
}

/// `GET /v1/admin/players/{id}/timeline`.
struct TimelineBody: Codable, Hashable, Sendable {
    var playerId: String
    /// A page of the timeline, oldest first.
    var events: [HistoryEvent]
    /// The `cursor` of the next page; absent on the last page.
    var nextCursor: String?

    init(playerId: String, page: LedgerPage<HistoryEvent>) {
        self.playerId = playerId
        self.events = page.items
        self.nextCursor = page.next?.token
    }
}

/// `GET /v1/admin/transactions/{id}`.
struct TransactionBody: Codable, Hashable, Sendable {
    var purchase: Purchase?
    var events: [HistoryEvent]
}

/// `GET /v1/admin/google-play/purchases/{purchaseToken}`: the purchases of a Play purchase
/// token (its player is each purchase's `playerId`) and their history.
struct PlayPurchaseBody: Codable, Hashable, Sendable {
    var purchases: [Purchase]
    var events: [HistoryEvent]
}

/// `GET /v1/admin/orders/{id}`.
struct AdminOrderBody: Codable, Hashable, Sendable {
    var order: OrderBody
    var purchase: Purchase?
    var events: [HistoryEvent]
}
