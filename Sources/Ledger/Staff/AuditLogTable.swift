/// The `audit_log` table: what staff did, appended (primary key `id`).
enum AuditLogTable: LedgerTable {
    static let name = "audit_log"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case id
        case actor
        case action
        case target
        case detail
        case address
        case createdAt = "created_at"
    }
}
