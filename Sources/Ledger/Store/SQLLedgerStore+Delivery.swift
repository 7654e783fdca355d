import Foundation

extension SQLLedgerStore {
    public func createOrder(_ order: Order) async throws -> Order {
        try await write(LedgerWrites.createOrder(LedgerRules.normalized(order)))
    }

    public func deliver(_ delivery: Delivery) async throws -> DeliveryResult {
        try LedgerRules.validate(delivery)
        var delivery = delivery
        delivery.purchaseDate = delivery.purchaseDate.ledgerNormalized
        return try await write(try LedgerWrites.deliver(delivery, dialect: dialect, at: now))
    }

    public func reverse(transactionId: String, reason: String) async throws -> ReversalResult {
        let move = LedgerWrites.moveRefundedShare(
            transactionId: transactionId, to: RefundShare.whole, reason: reason, dialect: dialect, at: now)
        return ReversalResult(try await write(move))
    }

    public func regrant(transactionId: String) async throws -> RegrantResult {
        let move = LedgerWrites.moveRefundedShare(
            transactionId: transactionId, to: 0, reason: nil, dialect: dialect, at: now)
        return RegrantResult(try await write(move))
    }

    public func settleRefundState(transactionId: String, reason: String) async throws -> RefundSettlement {
        try await write(
            LedgerWrites.settleRefundState(transactionId: transactionId, reason: reason, dialect: dialect, at: now))
    }

    public func grantManually(playerId: String, grants: Grants, reason: String, actor: String, via: String?)
        async throws -> LedgerPosting
    {
        try LedgerRules.validateManualGrants(grants)
        return try await write(
            LedgerWrites.grantManually(
                playerId: playerId, grants: grants, reason: reason, actor: actor, via: via, at: now)
        )
    }
}
