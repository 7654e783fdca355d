import Foundation

/// The support console's accounts, sessions and audit log (see ``StaffStore``).
extension LedgerSQL {
    // MARK: Accounts

    /// Inserts the account unless the name is taken; a row only when inserted.
    static func insertStaff(_ account: StaffAccount) -> LedgerStatement {
        StaffAccountTable.insert(
            [
                .name: .text(account.name), .role: .text(account.role.rawValue),
                .passwordHash: .text(account.passwordHash), .totpSecret: .optional(account.totpSecret),
                .disabledAt: .optional(account.disabledAt), .createdAt: .timestamp(account.createdAt),
                .passwordChangedAt: .timestamp(account.passwordChangedAt),
            ],
            "ON CONFLICT (name) DO NOTHING RETURNING name")
    }

    static func staff(name: String) -> LedgerStatement {
        LedgerStatement("SELECT \(StaffAccountTable.columns) FROM staff_accounts WHERE name = ?", [.text(name)])
    }

    static let staffAccounts = LedgerStatement("SELECT \(StaffAccountTable.columns) FROM staff_accounts ORDER BY name")

    /// Sets a new password and second factor and enables the account; a row only when the
    /// account exists.
    static func resetStaffPassword(name: String, passwordHash: String, totpSecret: String?, at: Date)
        -> LedgerStatement
    {
        LedgerStatement(
            """
            UPDATE staff_accounts
            SET password_hash = ?, totp_secret = ?, disabled_at = NULL, password_changed_at = ?
            WHERE name = ?
            RETURNING name
            """,
            [.text(passwordHash), .optional(totpSecret), .timestamp(at), .text(name)]
        )
    }

    /// Disables the account (keeping the first disabling time); a row only when it exists.
    static func disableStaff(name: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            "UPDATE staff_accounts SET disabled_at = COALESCE(disabled_at, ?) WHERE name = ? RETURNING name",
            [.timestamp(at), .text(name)]
        )
    }

    // MARK: Sessions

    static func insertStaffSession(_ session: StaffSession) -> LedgerStatement {
        StaffSessionTable.insert(
            [
                .tokenDigest: .text(session.tokenDigest), .staffName: .text(session.staffName),
                .csrfToken: .text(session.csrfToken), .createdAt: .timestamp(session.createdAt),
                .lastSeenAt: .timestamp(session.lastSeenAt), .expiresAt: .timestamp(session.expiresAt),
                .address: .text(session.address),
            ])
    }

    /// Deletes the account's sessions that have reached their end.
    static func deleteExpiredStaffSessions(staffName: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            "DELETE FROM staff_sessions WHERE staff_name = ? AND expires_at <= ?",
            [.text(staffName), .timestamp(at)]
        )
    }

    /// The session with its account's role and disabling time (both NULL when the account
    /// is missing).
    static func staffSession(tokenDigest: String) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT \(StaffSessionTable.columns(qualifiedBy: "s")), a.role, a.disabled_at
            FROM staff_sessions s LEFT JOIN staff_accounts a ON a.name = s.staff_name
            WHERE s.token_digest = ?
            """,
            [.text(tokenDigest)]
        )
    }

    /// Marks the session used; a row only when it still exists.
    static func touchStaffSession(tokenDigest: String, at: Date) -> LedgerStatement {
        LedgerStatement(
            "UPDATE staff_sessions SET last_seen_at = ? WHERE token_digest = ? RETURNING token_digest",
            [.timestamp(at), .text(tokenDigest)]
        )
    }

    static func deleteStaffSession(tokenDigest: String) -> LedgerStatement {
        LedgerStatement("DELETE FROM staff_sessions WHERE token_digest = ?", [.text(tokenDigest)])
    }

    static func deleteStaffSessions(staffName: String) -> LedgerStatement {
        LedgerStatement("DELETE FROM staff_sessions WHERE staff_name = ?", [.text(staffName)])
    }

    // MARK: Audit log

    /// Appends a record; returns it.
    static func insertAudit(_ record: AuditRecord) throws -> LedgerStatement {
        AuditLogTable.insert(
            [
                .actor: .text(record.actor), .action: .text(record.action), .target: .optional(record.target),
                .detail: .text(LedgerJSON.text(record.detail)), .address: .text(record.address),
                .createdAt: .timestamp(record.createdAt),
            ],
            "RETURNING \(AuditLogTable.columns)")
    }

    /// Up to `limit` records with ids below `beforeId`, newest first, only `actor`'s when
    /// given.
    static func auditRecords(beforeId: Int64, limit: Int, actor: String?) -> LedgerStatement {
        if let actor {
            return LedgerStatement(
                "SELECT \(AuditLogTable.columns) FROM audit_log WHERE actor = ? AND id < ? ORDER BY id DESC LIMIT ?",
                [.text(actor), .integer(beforeId), .integer(Int64(limit))]
            )
        }
        return LedgerStatement(
            "SELECT \(AuditLogTable.columns) FROM audit_log WHERE id < ? ORDER BY id DESC LIMIT ?",
            [.integer(beforeId), .integer(Int64(limit))]
        )
    }

    static func auditCount(action: String, address: String, since: Date) -> LedgerStatement {
        LedgerStatement(
            "SELECT COUNT(*) AS count FROM audit_log WHERE action = ? AND address = ? AND created_at >= ?",
            [.text(action), .text(address), .timestamp(since)]
        )
    }

    /// The count and newest time of `action`'s records by `actor` from `address` since
    /// `since`. `audit_log_by_action` (action, address, created_at) finds them: the rows it
    /// reads are the address's records of `action` in the window, which for
    /// `sign_in_failed` the per-address limit keeps to about
    /// `console.signInFailuresPerAddress`.
    static func auditTally(action: String, actor: String, address: String, since: Date) -> LedgerStatement {
        LedgerStatement(
            """
            SELECT COUNT(*) AS count, MAX(created_at) AS latest FROM audit_log
            WHERE action = ? AND address = ? AND created_at >= ? AND actor = ?
            """,
            [.text(action), .text(address), .timestamp(since), .text(actor)]
        )
    }
}
