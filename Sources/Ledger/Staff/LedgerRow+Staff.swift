import Foundation

extension StaffAccount {
    /// Reads an account from a row with ``StaffAccountTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<StaffAccountTable>(row)
        self.init(
            name: try row.requiredText(.name),
            role: try row.enumeration(StaffRole.self, .role),
            passwordHash: try row.requiredText(.passwordHash),
            totpSecret: try row.text(.totpSecret),
            disabledAt: try row.timestamp(.disabledAt),
            createdAt: try row.requiredTimestamp(.createdAt),
            passwordChangedAt: try row.requiredTimestamp(.passwordChangedAt)
        )
    }
}

extension StaffSession {
    /// Reads a session from a row of ``LedgerSQL/staffSession(tokenDigest:)`` whose account
    /// exists: the session's columns and its account's role.
    init(row: any LedgerRow) throws {
        let session = TableRow<StaffSessionTable>(row)
        self.init(
            tokenDigest: try session.requiredText(.tokenDigest),
            staffName: try session.requiredText(.staffName),
            role: try TableRow<StaffAccountTable>(row).enumeration(StaffRole.self, .role),
            csrfToken: try session.requiredText(.csrfToken),
            createdAt: try session.requiredTimestamp(.createdAt),
            lastSeenAt: try session.requiredTimestamp(.lastSeenAt),
            expiresAt: try session.requiredTimestamp(.expiresAt),
            address: try session.requiredText(.address)
        )
    }
}

extension AuditRecord {
    /// Reads a record from a row with ``AuditLogTable/columns``.
    init(row: any LedgerRow) throws {
        let row = TableRow<AuditLogTable>(row)
        self.init(
            id: try row.requiredInteger(.id),
            actor: try row.requiredText(.actor),
            action: try row.requiredText(.action),
            target: try row.text(.target),
            detail: try LedgerJSON.decode(
                [String: String].self, from: try row.requiredText(.detail), column: "detail"),
            address: try row.requiredText(.address),
            createdAt: try row.requiredTimestamp(.createdAt)
        )
    }
}
