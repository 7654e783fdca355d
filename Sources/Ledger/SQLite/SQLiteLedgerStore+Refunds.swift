import Foundation
import GRDB

extension SQLiteLedgerStore {
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
        return try await writer.write { db in
            guard let row = try db.row(transition.update) else {
                guard let existing = try db.row(LedgerSQL.purchase(transactionId: transactionId)) else {
                    return .unknownTransaction
                }
                return .unchanged(try Purchase(row: existing))
            }
            let purchase = try Purchase(row: row)
            let posting = try Self.post(
                db,
                playerId: purchase.playerId,
                grants: purchase.grants.mapValues { transition.sign * $0 },
                kind: transition.kind,
                transactionId: transactionId,
                reason: transition.reason,
                actor: nil,
                at: now
            )
            try db.run(
                LedgerSQL.insertEvent(
                    LedgerRules.purchaseChangeEvent(
                        transition.eventType, purchase: purchase, posting: posting, reason: transition.reason, at: now)
                )
            )
            return .changed(purchase, posting)
        }
    }

    public func grantManually(playerId: String, grants: Grants, reason: String, actor: String) async throws
        -> LedgerPosting
    {
        try LedgerRules.validateManualGrants(grants)
        let now = self.now
        return try await writer.write { db in
            let posting = try Self.post(
                db,
                playerId: playerId,
                grants: grants,
                kind: .manual,
                transactionId: nil,
                reason: reason,
                actor: actor,
                at: now
            )
            try db.run(
                LedgerSQL.insertEvent(
                    LedgerRules.manualGrantEvent(
                        playerId: playerId, posting: posting, reason: reason, actor: actor, at: now)
                )
            )
            return posting
        }
    }
}
