import Foundation

/// A support console account. The password is kept only as a bcrypt hash, and the TOTP
/// secret (the optional second factor) only in the ledger.
public struct StaffAccount: Sendable, Hashable {
    /// The sign-in name (unique, 1 to 64 characters).
    public var name: String
    /// What the account may do.
    public var role: StaffRole
    /// The bcrypt hash of the password.
    public var passwordHash: String
    /// The base32 TOTP secret of the second factor (RFC 6238, 6 digits, 30 s); `nil` when
    /// the account signs in with its password alone.
    public var totpSecret: String?
    /// When the account was disabled; a disabled account cannot sign in and has no sessions.
    public var disabledAt: Date?
    /// When the account was made.
    public var createdAt: Date
    /// When its password was last set.
    public var passwordChangedAt: Date

    /// Creates an account value.
    public init(
        name: String,
        role: StaffRole,
        passwordHash: String,
        totpSecret: String? = nil,
        disabledAt: Date? = nil,
        createdAt: Date,
        passwordChangedAt: Date
    ) {
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.totpSecret = totpSecret
        self.disabledAt = disabledAt
        self.createdAt = createdAt
        self.passwordChangedAt = passwordChangedAt
    }
}
