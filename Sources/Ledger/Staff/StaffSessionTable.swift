/// The `staff_sessions` table: signed-in console sessions, by the digest of their token
/// (primary key `token_digest`).
enum StaffSessionTable: LedgerTable {
    static let name = "staff_sessions"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case tokenDigest = "token_digest"
        case staffName = "staff_name"
        case csrfToken = "csrf_token"
        case createdAt = "created_at"
        case lastSeenAt = "last_seen_at"
        case expiresAt = "expires_at"
        case address
    }
}
