import Foundation

extension SQLLedgerStore {
    // MARK: Accounts

    public func createStaff(_ account: StaffAccount) async throws {
        let inserted = try await writeAutocommit(.first(LedgerSQL.insertStaff(account.ledgerNormalized)) { _ in true })
        guard inserted == true else { throw LedgerError.duplicateStaff(name: account.name) }
    }

    public func staff(name: String) async throws -> StaffAccount? {
        try await read(.first(LedgerSQL.staff(name: name), StaffAccount.init(row:)))
    }

    public func staffAccounts() async throws -> [StaffAccount] {
        try await read(.rows(LedgerSQL.staffAccounts, StaffAccount.init(row:)))
    }

    public func resetStaffPassword(name: String, passwordHash: String, totpSecret: String?) async throws -> Bool {
        let reset = LedgerSQL.resetStaffPassword(
            name: name, passwordHash: passwordHash, totpSecret: totpSecret, at: now)
        return try await write(Self.endingSessions(of: name, after: reset))
    }

    public func disableStaff(name: String) async throws -> Bool {
        try await write(Self.endingSessions(of: name, after: LedgerSQL.disableStaff(name: name, at: now)))
    }

    /// Runs `change` (a statement that returns a row only when the account exists) and, when
    /// it found the account, deletes all its sessions: `true` then, `false` otherwise.
    private static func endingSessions(of name: String, after change: LedgerStatement) -> LedgerOperation<Bool> {
        .statement(change) { rows in
            guard !rows.isEmpty else { return .done(false) }
            return .statement(LedgerSQL.deleteStaffSessions(staffName: name)) { _ in .done(true) }
        }
    }

    // MARK: Sessions

    public func createStaffSession(_ session: StaffSession) async throws {
        let session = session.ledgerNormalized
        try await write(
            LedgerOperation.execute(LedgerSQL.deleteExpiredStaffSessions(staffName: session.staffName, at: now))
                .then { .execute(LedgerSQL.insertStaffSession(session)) })
    }

    public func useStaffSession(tokenDigest: String, idleTimeout: TimeInterval) async throws -> StaffSession? {
        let now = self.now
        let delete = LedgerSQL.deleteStaffSession(tokenDigest: tokenDigest)
        return try await write(
            .statement(LedgerSQL.staffSession(tokenDigest: tokenDigest)) { rows in
                guard let row = rows.first else { return .done(nil) }
                let (stored, account) = (TableRow<StaffSessionTable>(row), TableRow<StaffAccountTable>(row))
                let lastSeenAt = try stored.requiredTimestamp(.lastSeenAt)
                guard try account.text(.role) != nil, try account.timestamp(.disabledAt) == nil,
                    now.timeIntervalSince(lastSeenAt) <= idleTimeout, now < (try stored.requiredTimestamp(.expiresAt))
                else {
                    return .statement(delete) { _ in .done(nil) }
                }
                var used = try StaffSession(row: row)
                used.lastSeenAt = now
                let session = used
                // A session deleted meanwhile (signed out, account disabled) updates no row.
                return .statement(LedgerSQL.touchStaffSession(tokenDigest: tokenDigest, at: now)) { touched in
                    .done(touched.isEmpty ? nil : session)
                }
            })
    }

    public func deleteStaffSession(tokenDigest: String) async throws {
        try await writeAutocommit(.execute(LedgerSQL.deleteStaffSession(tokenDigest: tokenDigest)))
    }

    // MARK: Audit log

    public func appendAudit(_ record: AuditRecord) async throws -> AuditRecord {
        var record = record
        record.createdAt = record.createdAt.ledgerNormalized
        let inserted = try await writeAutocommit(.first(try LedgerSQL.insertAudit(record), AuditRecord.init(row:)))
        guard let inserted else { throw LedgerError.corruptRow("audit insert returned nothing") }
        return inserted
    }

    public func auditRecords(beforeId: Int64?, limit: Int, actor: String?) async throws -> [AuditRecord] {
        guard limit > 0 else { return [] }
        return try await read(
            .rows(
                LedgerSQL.auditRecords(beforeId: beforeId ?? .max, limit: limit, actor: actor), AuditRecord.init(row:)))
    }

    public func auditCount(action: String, address: String, since: Date) async throws -> Int {
        let count = try await read(
            .first(
                LedgerSQL.auditCount(action: action, address: address, since: since.ledgerNormalized),
                { try $0.requiredInteger("count") }))
        return Int(count ?? 0)
    }

    public func auditTally(action: String, actor: String, address: String, since: Date) async throws -> AuditTally {
        let statement = LedgerSQL.auditTally(
            action: action, actor: actor, address: address, since: since.ledgerNormalized)
        let tally = try await read(
            .first(statement) {
                AuditTally(count: Int(try $0.requiredInteger("count")), latest: try $0.timestamp("latest"))
            })
        return tally ?? AuditTally(count: 0, latest: nil)
    }
}

extension StaffAccount {
    /// The account with its times at the ledger's resolution.
    fileprivate var ledgerNormalized: StaffAccount {
        var account = self
        account.disabledAt = disabledAt?.ledgerNormalized
        account.createdAt = createdAt.ledgerNormalized
        account.passwordChangedAt = passwordChangedAt.ledgerNormalized
        return account
    }
}

extension StaffSession {
    /// The session with its times at the ledger's resolution.
    fileprivate var ledgerNormalized: StaffSession {
        var session = self
        session.createdAt = createdAt.ledgerNormalized
        session.lastSeenAt = lastSeenAt.ledgerNormalized
        session.expiresAt = expiresAt.ledgerNormalized
        return session
    }
}
