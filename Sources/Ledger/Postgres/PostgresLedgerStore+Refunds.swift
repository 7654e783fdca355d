import Foundation
import PostgresNIO

extension PostgresLedgerStore {
    public func reverse(transactionId: String, reason: String) async throws -> ReversalResult {
        let now = self.now
        return ReversalResult(
            try await apply(.refund(transactionId: transactionId, reason: reason, at: now), to: transactionId, at: now)
        )
    }

    public func regrant(transactionId: String) async throws -> RegrantResult {
        RegrantResult(try await apply(.regrant(transactionId: transactionId), to: transactionId, at: now))
    }

    private func apply(
        _ transition: PurchaseStatusTransition,
        to transactionId: String,
        at now: Date
    ) async throws -> PurchaseStatusTransition.Outcome {
        return try await transaction { connection in
            guard let row = try await connection.row(transition.update, logger: self.logger) else {
                guard
                    let existing = try await connection.row(
                        LedgerSQL.purchase(transactionId: transactionId),
                        logger: self.logger
                    )
                else { return .unknownTransaction }
                return .unchanged(try Purchase(row: existing))
            }
            let purchase = try Purchase(row: row)
            let posting = try await self.post(
                connection,
                playerId: purchase.playerId,
                grants: purchase.grants.mapValues { transition.sign * $0 },
                kind: transition.kind,
                transactionId: transactionId,
                reason: transition.reason,
                actor: nil,
                at: now
            )
            try await connection.run(
                LedgerSQL.insertEvent(
                    LedgerRules.purchaseChangeEvent(
                        transition.eventType, purchase: purchase, posting: posting, reason: transition.reason, at: now)
                ),
                logger: self.logger
            )
            return .changed(purchase, posting)
        }
    }

    public func grantManually(playerId: String, grants: Grants, reason: String, actor: String) async throws
        -> LedgerPosting
    {
        try LedgerRules.validateManualGrants(grants)
        let now = self.now
        return try await transaction { connection in
            let posting = try await self.post(
                connection,
                playerId: playerId,
                grants: grants,
                kind: .manual,
                transactionId: nil,
                reason: reason,
                actor: actor,
                at: now
            )
            try await connection.run(
                LedgerSQL.insertEvent(
                    LedgerRules.manualGrantEvent(
                        playerId: playerId, posting: posting, reason: reason, actor: actor, at: now)
                ),
                logger: self.logger
            )
            return posting
        }
    }
}
