/// The `balances` table: each player's amount of each item, materialized from the ledger
/// entries (primary key `player_id`, `item`).
enum BalanceTable: LedgerTable {
    static let name = "balances"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case playerId = "player_id"
        case item
        case amount
        case updatedAt = "updated_at"
    }
}
