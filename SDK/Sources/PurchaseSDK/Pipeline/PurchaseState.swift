/// Where one order stands in the pipeline. Each state is journaled before the side effect
/// that leaves it.
public enum PurchaseState: Codable, Hashable, Sendable {
    /// The game asked for a purchase; the server order is being created.
    case created
    /// The server order exists; the store is (or was, before a crash) charging for it.
    case purchasing
    /// Apple charged: the transaction is bound to the order.
    case purchased
    /// The report to the server is (or was) on its way.
    case reported
    /// The server acknowledged the delivery; the transaction is being finished.
    case delivered
    /// Delivered and finished with the store: done.
    case finished
    /// Waiting for Ask to Buy or the bank; stays so across launches until the store decides.
    case pending
    /// Refused for good: the order could not be created, or the server rejected the
    /// transaction (recorded there) and the transaction was finished. A restore journals a
    /// transaction another player keeps this way too (reason `kept_by_other_player` or
    /// `refused`), so it is finished without counting as delivered to this player.
    case failed(reason: String)
    /// Nothing was charged: the customer cancelled, or the app died before paying.
    case cancelled

    /// Whether the pipeline has nothing more to do for an order in this state (pending
    /// orders wait for the store, not for the pipeline).
    var isSettled: Bool {
        switch self {
        case .finished, .failed, .cancelled, .pending: true
        case .created, .purchasing, .purchased, .reported, .delivered: false
        }
    }
}
