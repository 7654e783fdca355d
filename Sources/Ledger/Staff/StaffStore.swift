import Foundation

/// The support console's accounts, sessions and audit log, kept in the ledger database so
/// that every server instance on it shares them.
public protocol StaffStore: Sendable {
    // MARK: Accounts

    /// Adds an account. Throws ``LedgerError/duplicateStaff(name:)`` (nothing written) when
    /// the name is taken.
    func createStaff(_ account: StaffAccount) async throws

    /// The account with this name.
    func staff(name: String) async throws -> StaffAccount?

    /// Every account, by name.
    func staffAccounts() async throws -> [StaffAccount]

    /// Sets a new password hash and second factor (`nil` removes it), enables the account
    /// again and ends all its sessions, in one transaction; `false` when there is no such
    /// account. (Failed sign-ins are not kept on the account: the console counts them in the
    /// audit log, which nothing changes.)
    func resetStaffPassword(name: String, passwordHash: String, totpSecret: String?) async throws -> Bool

    /// Disables the account and ends all its sessions, in one transaction; `false` when
    /// there is no such account.
    func disableStaff(name: String) async throws -> Bool

    // MARK: Sessions

    /// Stores a new session (``StaffSession/role`` is not stored: it is read from the account).
    func createStaffSession(_ session: StaffSession) async throws

    /// The session with this token digest, marked used now, if it is still valid: its
    /// account exists and is enabled, it was used within `idleTimeout` seconds and has not
    /// reached ``StaffSession/expiresAt``. A session found no longer valid is deleted.
    /// `nil` otherwise.
    func useStaffSession(tokenDigest: String, idleTimeout: TimeInterval) async throws -> StaffSession?

    /// Ends a session (signing out); nothing happens when there is none.
    func deleteStaffSession(tokenDigest: String) async throws

    // MARK: Audit log

    /// Appends a record to the audit log (append-only); returns it with its id.
    @discardableResult
    func appendAudit(_ record: AuditRecord) async throws -> AuditRecord

    /// Up to `limit` records, newest first, with ids below `beforeId` (from the newest
    /// when `nil`); only `actor`'s when given.
    func auditRecords(beforeId: Int64?, limit: Int, actor: String?) async throws -> [AuditRecord]

    /// How many records of `action` came from `address` at or after `since` (the sign-in
    /// rate limit counts `sign_in_failed` this way, across instances).
    func auditCount(action: String, address: String, since: Date) async throws -> Int

    /// How many records of `action` by `actor` came from `address` at or after `since`, and
    /// the newest one's time (the sign-in delay of one name at one address counts
    /// `sign_in_failed` this way, across instances).
    func auditTally(action: String, actor: String, address: String, since: Date) async throws -> AuditTally
}
