import Foundation

/// A signed-in console session, kept in the ledger so that every server instance on the
/// database knows it. The session token itself is never stored: only its SHA-256 digest.
public struct StaffSession: Sendable, Hashable {
    /// The hex SHA-256 digest of the session cookie's token.
    public var tokenDigest: String
    /// The account signed in.
    public var staffName: String
    /// The account's role when the session is read (joined from the account).
    public var role: StaffRole
    /// The token every change made in this session must carry (forms' hidden `csrf` field).
    public var csrfToken: String
    /// When the session began.
    public var createdAt: Date
    /// When it was last used; it ends after the configured idle time.
    public var lastSeenAt: Date
    /// When it ends whatever its use.
    public var expiresAt: Date
    /// The address it was signed in from.
    public var address: String

    /// Creates a session value.
    public init(
        tokenDigest: String,
        staffName: String,
        role: StaffRole,
        csrfToken: String,
        createdAt: Date,
        lastSeenAt: Date,
        expiresAt: Date,
        address: String
    ) {
        self.tokenDigest = tokenDigest
        self.staffName = staffName
        self.role = role
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.address = address
    }
}
