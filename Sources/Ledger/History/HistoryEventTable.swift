/// The `history_events` table: what happened, in order, for support and refunds (primary key
/// `id`, assigned by the database). `store` is NULL on events recorded before the ledger
/// named stores (``LedgerSQL/storeOfEvent``).
enum HistoryEventTable: LedgerTable {
    static let name = "history_events"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case id
        case type
        case playerId = "player_id"
        case orderId = "order_id"
        case transactionId = "transaction_id"
        case store
        case detail
        case createdAt = "created_at"
    }
}
