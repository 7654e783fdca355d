/// The `ledger_entries` table: every change of a balance, appended (primary key `id`).
enum LedgerEntryTable: LedgerTable {
    static let name = "ledger_entries"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case id
        case playerId = "player_id"
        case item
        case amount
        case kind
        case transactionId = "transaction_id"
        case reason
        case actor
        case balanceAfter = "balance_after"
        case createdAt = "created_at"
    }
}
