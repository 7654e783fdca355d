import Foundation
import GRDB

extension SQLiteLedgerStore {
    public func reverse(transactionId: String, reason: String) async throws -> ReversalResult {
        let now = self.now
        return try await writer.write { db in
            // The conditional update decides: only the call that changes the status posts.
            guard let row = try db.row(LedgerSQL.markRefunded(transactionId: transactionId, reason: reason, at: now))
            else {
                guard let existing = try db.row(LedgerSQL.purchase(transactionId: transactionId)) else {
                    return .unknownTransaction
                }
                return .alreadyReversed(try Purchase(row: existing))
            }
            let purchase = try Purchase(row: row)
            let posting = try Self.post(
                db,
                playerId: purchase.playerId,
                grants: purchase.grants.mapValues { -$0 },
                kind: .refund,
                transactionId: transactionId,
                reason: reason,
                actor: nil,
                at: now
            )
            try db.run(
                LedgerSQL.insertEvent(
                    LedgerRules.purchaseChangeEvent(
                        .refunded, purchase: purchase, posting: posting, reason: reason, at: now)
                )
            )
            return .reversed(purchase, posting)
        }
    }

    public func regrant(transactionId: String) async throws -> RegrantResult {
        let now = self.now
        return try await writer.write { db in
            guard let row = try db.row(LedgerSQL.markRegranted(transactionId: transactionId)) else {
                guard let existing = try db.row(LedgerSQL.purchase(transactionId: transactionId)) else {
                    return .unknownTransaction
                }
                return .alreadyGranted(try Purchase(row: existing))
            }
            let purchase = try Purchase(row: row)
            let posting = try Self.post(
                db,
                playerId: purchase.playerId,
                grants: purchase.grants,
                kind: .refundReversed,
                transactionId: transactionId,
                reason: nil,
                actor: nil,
                at: now
            )
            try db.run(
                LedgerSQL.insertEvent(
                    LedgerRules.purchaseChangeEvent(
                        .refundReversed,
                        purchase: purchase,
                        posting: posting,
                        reason: nil,
                        at: now
                    )
                )
            )
            return .regranted(purchase, posting)
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
