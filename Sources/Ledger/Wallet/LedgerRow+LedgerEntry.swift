import Foundation

extension LedgerEntry {
    /// Reads a ledger entry from a row with ``LedgerEntryTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<LedgerEntryTable>(row)
        self.init(
            id: try row.requiredInteger(.id),
            playerId: try row.requiredText(.playerId),
            item: try row.requiredText(.item),
            amount: try row.requiredInteger(.amount),
            kind: try row.enumeration(LedgerEntryKind.self, .kind),
            transactionId: try row.text(.transactionId),
            reason: try row.text(.reason),
            actor: try row.text(.actor),
            balanceAfter: try row.requiredInteger(.balanceAfter),
            createdAt: try row.requiredTimestamp(.createdAt)
        )
    }
}
