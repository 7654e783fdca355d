import Ledger

/// The player a transaction belongs to, from what the ledger knows: the player it was
/// delivered to, or else the player whose order its `appAccountToken` names.
struct TransactionHolder: Sendable, Hashable {
    /// The player.
    var playerId: String
    /// The order the transaction was delivered against or is bound to, if any.
    var orderId: String?
    /// The delivered purchase; `nil` when the ledger never delivered the transaction.
    var purchase: Purchase?

    /// The holder of `transactionId`, or `nil` when the ledger knows no player for it.
    static func find(transactionId: String, appAccountToken: String?, in store: any LedgerStore) async throws
        -> TransactionHolder?
    {
        if let purchase = try await store.purchase(store: .appStore, transactionId: transactionId) {
            return TransactionHolder(playerId: purchase.playerId, orderId: purchase.orderId, purchase: purchase)
        }
        guard let appAccountToken, let order = try await store.order(appAccountToken: appAccountToken) else {
            return nil
        }
        return TransactionHolder(playerId: order.playerId, orderId: order.orderId, purchase: nil)
    }
}
