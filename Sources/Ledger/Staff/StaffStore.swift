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

    /// Sets a new password hash and second factor (`nil` removes it), clears failed
    /// sign-ins and any lock, enables the account again and ends all its sessions, in one
    /// transaction; `false` when there is no such account.
    func resetStaffPassword(name: String, passwordHash: String, totpSecret: String?) async throws -> Bool

    /// Disables the account and ends all its sessions, in one transaction; `false` when
    /// there is no such account.
    func disableStaff(name: String) async throws -> Bool

    /// Counts a failed sign-in in one statement: at `lockAfter` consecutive failures the
    /// account is locked for `lockFor` seconds from now and the count starts again. Returns
    /// the account as it stands afterwards; `nil` when there is no such account.
    func recordSignInFailure(name: String, lockAfter: Int, lockFor: TimeInterval) async throws -> StaffAccount?

    /// Clears the failed sign-ins after a successful one.
    func recordSignInSuccess(name: String) async throws

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
}
