import Foundation

extension SQLLedgerStore {
    public func acquireLease(_ name: String, holder: String, duration: TimeInterval) async throws -> Lease {
        let now = self.now
        let take = LedgerSQL.takeLease(
            name: name, holder: holder, now: now, expiresAt: now.addingTimeInterval(duration).ledgerNormalized)
        let current = LedgerSQL.lease(name: name, dialect: dialect)
        return try await write(
            .statement(take) { taken in
                if let row = taken.first { return .done(try Lease(row: row)) }
                // Another holder's unexpired lease: the conflicting row exists and stays
                // (PostgreSQL locked it; SQLite's write transaction excludes every other).
                return .statement(current) { rows in
                    guard let row = rows.first else { throw LedgerError.corruptRow("lease \(name) vanished") }
                    return .done(try Lease(row: row))
                }
            })
    }

    public func releaseLease(_ name: String, holder: String) async throws {
        try await writeAutocommit(.execute(LedgerSQL.releaseLease(name: name, holder: holder)))
    }

    public func advanceCheckpoint(_ name: String, to value: Int64, holding lease: Lease) async throws
        -> CheckpointAdvance
    {
        let now = self.now
        let dialect = dialect
        return try await write(
            .statement(LedgerSQL.lease(name: lease.name, dialect: dialect)) { rows in
                guard let held = try rows.first.map(Lease.init(row:)), held.holder == lease.holder, held.expiresAt > now
                else { return .done(.leaseLost) }
                return .statement(LedgerSQL.checkpointForUpdate(name: name, dialect: dialect)) { rows in
                    if let text = try rows.first.map({ try TableRow<CheckpointTable>($0).requiredText(.value) }),
                        let current = Int64(text), current >= value
                    {
                        return .done(.unchanged)
                    }
                    return .statement(LedgerSQL.setCheckpoint(name: name, value: String(value), at: now)) { _ in
                        .done(.advanced)
                    }
                }
            })
    }
}
