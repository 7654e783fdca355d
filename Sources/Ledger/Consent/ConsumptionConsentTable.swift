/// The `consumption_consents` table: each player's consent to share consumption data
/// (primary key `player_id`).
enum ConsumptionConsentTable: LedgerTable {
    static let name = "consumption_consents"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case playerId = "player_id"
        case status
        case source
        case appTransactionId = "app_transaction_id"
        case changedBy = "changed_by"
        case changedAt = "changed_at"
    }
}
