import Ledger

/// The answer to a purchase report (and to each transaction of an admin order lookup).
struct PurchaseAnswer: Codable, Hashable, Sendable {
    /// The answer's kind.
    enum Status: String, Codable, Hashable, Sendable {
        /// This report delivered the goods.
        case delivered
        /// An earlier report (or notification) delivered them; nothing changed.
        case alreadyDelivered = "already_delivered"
        /// Not decided yet (Apple unavailable, or no binding yet): report again later.
        case pending
        /// Refused for good, for ``PurchaseAnswer/reason``.
        case rejected
    }

    var status: Status
    /// The stable refusal reason, for `pending` and `rejected`.
    var reason: String?
    /// A sentence for people, for `pending` and `rejected`.
    var message: String?
    var transactionId: String?
    var orderId: String?
    var productId: String?
    /// What the purchase granted.
    var grants: Grants
    /// The player's balances after the delivery.
    var balances: [String: Int64]
    /// Flags recorded at delivery (`unbound`, `sandbox_in_production`, …).
    var flags: [String]
    /// In support's order lookup only: what was done to make Apple's transaction carry the
    /// token of the order the purchase is bound to; absent when nothing needed doing.
    var appAccountTokenAtApple: AppAccountTokenAnswer?
    /// With `delivered` and `already_delivered`: how much of the purchase Apple has refunded
    /// so far, in milliunits (0 none, 100,000 all); the ledger has taken that share of
    /// ``grants`` back, rounded down, and ``balances`` show it.
    var refundedShare: Int?

    init(_ result: DeliveryResult, balances: [String: Int64]) {
        let purchase = result.purchase
        status = result.isFirstDelivery ? .delivered : .alreadyDelivered
        transactionId = purchase.transactionId
        orderId = purchase.orderId
        productId = purchase.productId
        grants = purchase.grants
        self.balances = balances
        flags = purchase.flags.sorted()
        refundedShare = purchase.refundedShare
    }

    init(_ refusal: DeliveryRefusal) {
        status = refusal.kind == .rejected ? .rejected : .pending
        reason = refusal.reason
        message = refusal.message
        transactionId = refusal.transactionId
        orderId = refusal.orderId
        grants = [:]
        balances = [:]
        flags = []
    }
}
