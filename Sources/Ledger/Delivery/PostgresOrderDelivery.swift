/// How ``LedgerStore/deliverByOrder(_:appAccountToken:)`` runs on PostgreSQL. Both write the
/// same rows and answer the same (a test suite runs every case through both); they differ in
/// round trips.
public enum PostgresOrderDelivery: String, Sendable, CaseIterable {
    /// One statement: the PL/pgSQL function `storekeeper_deliver_by_order` (migration 8),
    /// one round trip and one commit. The default.
    case function
    /// The Swift operation SQLite runs (``LedgerWrites/deliverByOrder(_:dialect:)``), as
    /// statements of one transaction: about eleven round trips. Kept so that the
    /// performance script measures the function against it in every run.
    case statements
}
