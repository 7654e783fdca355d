import Foundation

extension StaffAccount {
    /// Reads an account from a row with ``LedgerSQL/staffColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            name: try row.requiredText("name"),
            role: try row.enumeration(StaffRole.self, "role"),
            passwordHash: try row.requiredText("password_hash"),
            totpSecret: try row.text("totp_secret"),
            disabledAt: try row.timestamp("disabled_at"),
            createdAt: try row.requiredTimestamp("created_at"),
            passwordChangedAt: try row.requiredTimestamp("password_changed_at")
        )
    }
}

extension StaffSession {
    /// Reads a session from a row of ``LedgerSQL/staffSession(tokenDigest:)`` whose account
    /// exists.
    init(row: any LedgerRow) throws {
        self.init(
            tokenDigest: try row.requiredText("token_digest"),
            staffName: try row.requiredText("staff_name"),
            role: try row.enumeration(StaffRole.self, "role"),
            csrfToken: try row.requiredText("csrf_token"),
            createdAt: try row.requiredTimestamp("created_at"),
            lastSeenAt: try row.requiredTimestamp("last_seen_at"),
            expiresAt: try row.requiredTimestamp("expires_at"),
            address: try row.requiredText("address")
        )
    }
}

extension AuditRecord {
    /// Reads a record from a row with ``LedgerSQL/auditColumns``.
    init(row: any LedgerRow) throws {
        self.init(
            id: try row.requiredInteger("id"),
            actor: try row.requiredText("actor"),
            action: try row.requiredText("action"),
            target: try row.text("target"),
            detail: try LedgerJSON.decode(
                [String: String].self, from: try row.requiredText("detail"), column: "detail"),
            address: try row.requiredText("address"),
            createdAt: try row.requiredTimestamp("created_at")
        )
    }
}
