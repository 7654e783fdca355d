/// The `spends` table (``LedgerSchema/spends``): one row per player and idempotency key.
enum SpendTable: LedgerTable {
    static let name = "spends"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case playerId = "player_id"
        case idempotencyKey = "idempotency_key"
        case items
        case reason
        case actor
        case balances
        case createdAt = "created_at"
    }
}
