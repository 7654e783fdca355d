import Foundation

extension LedgerEntry {
    /// Reads a ledger entry from a row with ``LedgerSQL/entryColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            id: try row.requiredInteger("id"),
            playerId: try row.requiredText("player_id"),
            item: try row.requiredText("item"),
            amount: try row.requiredInteger("amount"),
            kind: try row.enumeration(LedgerEntryKind.self, "kind"),
            transactionId: try row.text("transaction_id"),
            reason: try row.text("reason"),
            actor: try row.text("actor"),
            balanceAfter: try row.requiredInteger("balance_after"),
            createdAt: try row.requiredTimestamp("created_at")
        )
    }
}
