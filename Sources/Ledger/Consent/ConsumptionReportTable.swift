/// The `consumption_reports` table: the latest consumption report of each transaction
/// (primary key `transaction_id`).
enum ConsumptionReportTable: LedgerTable {
    static let name = "consumption_reports"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case transactionId = "transaction_id"
        case playerId = "player_id"
        case consumptionPercentage = "consumption_percentage"
        case spent
        case reportedBy = "reported_by"
        case reportedAt = "reported_at"
    }
}
