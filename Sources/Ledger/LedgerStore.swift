import Foundation

/// The purchase server's persistence: the composition of the ledger's operations, each a
/// small protocol kept in the folder of its operation (orders, delivery, refunds, wallets,
/// history, notifications, consent, outbox, leases, staff, support reads, entitlements,
/// spends).
///
/// Two implementations share one logical schema: ``SQLiteLedgerStore`` (embedded default)
/// and ``PostgresLedgerStore`` (many stateless server instances on one database). Every
/// write is one database transaction; races are decided by uniqueness constraints and
/// conditional updates inside the database, never by in-process locks, so any number of
/// processes may share one database.
public protocol LedgerStore:
    OrderStore, DeliveryStore, RefundStore, WalletStore, HistoryStore, NotificationStore, ConsentStore, OutboxStore,
    LeaseStore, StaffStore, SupportReads, EntitlementStore, SpendStore
{
    /// Brings the schema up to date (versioned migrations; safe to run again, and from
    /// several processes at once).
    ///
    /// - Throws: ``LedgerError/schemaNewerThanBuild(version:newestKnown:)``, changing
    ///   nothing, when a newer release already migrated the ledger past what this build knows.
    func migrate() async throws

    /// The schema versions applied to the database, in order.
    func appliedMigrations() async throws -> [Int64]

    /// Releases connections. The store must not be used afterwards.
    func close() async throws
}
