import Foundation

extension SQLLedgerStore {
    public func reverse(store: Store, transactionId: String, reason: String) async throws -> ReversalResult {
        let move = LedgerWrites.moveRefundedShare(
            store: store, transactionId: transactionId, to: RefundShare.whole, reason: reason, dialect: dialect, at: now
        )
        return ReversalResult(try await write(move))
    }

    public func regrant(store: Store, transactionId: String) async throws -> RegrantResult {
        let move = LedgerWrites.moveRefundedShare(
            store: store, transactionId: transactionId, to: 0, reason: nil, dialect: dialect, at: now)
        return RegrantResult(try await write(move))
    }

    public func settleRefundState(store: Store, transactionId: String, reason: String) async throws -> RefundSettlement
    {
        try await write(
            LedgerWrites.settleRefundState(
                store: store, transactionId: transactionId, reason: reason, dialect: dialect, at: now))
    }
}
