/// One value of a bulk-loaded row: text, an integer, a time (the ledger's epoch
/// milliseconds) or SQL NULL.
enum BulkValue: Sendable {
    case text(String)
    case integer(Int64)
    case milliseconds(Int64)
    case null
}

/// Rows for one ledger table, gathered for a bulk load (``BulkLoading``): the table's name,
/// the columns each row gives (named by the table's declaration, ``LedgerTable``) and
/// the values, row after row.
struct BulkRows: Sendable {
    let table: String
    let columns: [String]
    private(set) var values: [BulkValue] = []

    /// Rows of `Table` giving `columns`, then any bookkeeping columns the record does not
    /// declare (`extra`, e.g. `orders.fulfilled_at`).
    init<Table: LedgerTable>(_ table: Table.Type, _ columns: [Table.Column], extra: [String] = []) {
        self.table = Table.name
        self.columns = columns.map(\.rawValue) + extra
    }

    /// How many rows are gathered.
    var count: Int { columns.isEmpty ? 0 : values.count / columns.count }

    /// Appends one row: a value per column, in the columns' order.
    mutating func append(_ row: BulkValue...) {
        precondition(row.count == columns.count, "\(table): \(row.count) values for \(columns.count) columns")
        values.append(contentsOf: row)
    }
}

/// A store that takes rows in bulk, past the ledger's rules: for filling a ledger with
/// generated history (``HistoryFill``), never for serving. SQLite inserts them with
/// prepared statements in one transaction; PostgreSQL copies them (`COPY … FROM STDIN`).
///
/// A fill drops the secondary indexes of the tables it loads first and builds them again at
/// its end (``beginBulkLoad(of:)``, ``finishBulkLoad(rebuilding:)``): one sorted build of an
/// index costs far less than millions of inserts at random places in it. The unique
/// indexes stay, and with them every check the rows meet during the load. The triggers of
/// ``LedgerSchema/bulkLoadRebuilds`` are suspended too, their tables filled once at the end.
protocol BulkLoading: LedgerStore {
    /// Whether the ledger holds any order or purchase.
    func holdsHistory() async throws -> Bool

    /// Readies the ledger for loads into `tables`: drops their non-unique indexes, suspends
    /// the triggers of ``BulkLoadRebuild/of(_:)`` and returns the statements that undo what
    /// it did, the indexes' `CREATE` statements first, then the rebuilds, then the triggers.
    func beginBulkLoad(of tables: [String]) async throws -> [String]

    /// Writes every row of `tables`, in order (a table another references comes first), in
    /// one transaction.
    func bulkLoad(_ tables: [BulkRows]) async throws

    /// Runs the statements ``beginBulkLoad(of:)`` returned: builds the indexes it dropped
    /// and leaves the ledger as a served one expects it.
    func finishBulkLoad(rebuilding statements: [String]) async throws
}

extension BulkLoading where Self: SQLLedgerStore {
    /// Whether the ledger holds any order or purchase: a fill writes only into a new one.
    func holdsHistory() async throws -> Bool {
        try await read(
            .first(
                LedgerStatement(
                    """
                    SELECT CASE WHEN EXISTS (SELECT 1 FROM orders) OR EXISTS (SELECT 1 FROM purchases)
                        THEN 1 ELSE 0 END AS held
                    """),
                { try $0.requiredInteger("held") != 0 })) ?? false
    }
}
