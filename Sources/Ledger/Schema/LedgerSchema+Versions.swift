/// Which migrations a ledger still needs, and the refusal to run on a ledger that a newer
/// `storekeeper` already migrated.
extension LedgerSchema {
    /// The newest schema version this build knows.
    static let newestVersion: Int64 = migrations.map(\.version).max() ?? 0

    /// The migrations a ledger whose `schema_migrations` holds `applied` still needs, oldest
    /// first.
    ///
    /// - Throws: ``LedgerError/schemaNewerThanBuild(version:newestKnown:)`` when the ledger
    ///   holds a version this build does not know: a newer `storekeeper` migrated it, and this
    ///   one's statements may no longer match its tables.
    static func pending(applied: Set<Int64>) throws(LedgerError) -> [LedgerMigration] {
        if let version = applied.max(), version > newestVersion {
            throw LedgerError.schemaNewerThanBuild(version: version, newestKnown: newestVersion)
        }
        return migrations.filter { !applied.contains($0.version) }
    }
}
