/// Why a record's transaction counts as finished with the store
/// (``PurchaseRecord/finishReason``).
public enum FinishReason: String, Codable, Hashable, Sendable {
    /// The app finished it after the server acknowledged the delivery.
    case delivered
    /// The app finished it after the server refused it for good.
    case rejected
    /// The purchase server finished it: it delivered the order from Apple's notification
    /// while the app was gone, and finished the transaction at Apple (Finish Transaction),
    /// so the store no longer lists it. A normal ending, not a lost purchase: the server
    /// says the order is fulfilled by this transaction.
    case finishedByServer = "finished_by_server"
}
