import Foundation
import PostgresNIO

extension PostgresLedgerStore {
    public func reverse(transactionId: String, reason: String) async throws -> ReversalResult {
        let now = self.now
        return try await transaction { connection in
            // The conditional update decides: only the call that changes the status posts.
            guard
                let row = try await connection.row(
                    LedgerSQL.markRefunded(transactionId: transactionId, reason: reason, at: now),
                    logger: self.logger
                )
            else {
                guard
                    let existing = try await connection.row(
                        LedgerSQL.purchase(transactionId: transactionId),
                        logger: self.logger
                    )
                else { return .unknownTransaction }
                return .alreadyReversed(try Purchase(row: existing))
            }
            let purchase = try Purchase(row: row)
            let posting = try await self.post(
                connection,
                playerId: purchase.playerId,
                grants: purchase.grants.mapValues { -$0 },
                kind: .refund,
                transactionId: transactionId,
                reason: reason,
                actor: nil,
                at: now
            )
            try await connection.run(
                LedgerSQL.insertEvent(
                    LedgerRules.purchaseChangeEvent(
                        .refunded, purchase: purchase, posting: posting, reason: reason, at: now)
                ),
                logger: self.logger
            )
            return .reversed(purchase, posting)
        }
    }

    public func regrant(transactionId: String) async throws -> RegrantResult {
        let now = self.now
        return try await transaction { connection in
            guard
                let row = try await connection.row(
                    LedgerSQL.markRegranted(transactionId: transactionId),
                    logger: self.logger
                )
            else {
                guard
                    let existing = try await connection.row(
                        LedgerSQL.purchase(transactionId: transactionId),
                        logger: self.logger
                    )
                else { return .unknownTransaction }
                return .alreadyGranted(try Purchase(row: existing))
            }
            let purchase = try Purchase(row: row)
            let posting = try await self.post(
                connection,
                playerId: purchase.playerId,
                grants: purchase.grants,
                kind: .refundReversed,
                transactionId: transactionId,
                reason: nil,
                actor: nil,
                at: now
            )
            try await connection.run(
                LedgerSQL.insertEvent(
                    LedgerRules.purchaseChangeEvent(
                        .refundReversed,
                        purchase: purchase,
                        posting: posting,
                        reason: nil,
                        at: now
                    )
                ),
                logger: self.logger
            )
            return .regranted(purchase, posting)
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
