/// The `checkpoints` table: named values (primary key `name`). A lease is one row whose
/// `value` is its holder and `updated_at` the moment it expires.
enum CheckpointTable: LedgerTable {
    static let name = "checkpoints"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case name
        case value
        case updatedAt = "updated_at"
    }
}
