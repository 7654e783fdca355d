/// The `staff_accounts` table: the support console's accounts (primary key `name`). Its
/// columns `failed_sign_ins` and `locked_until` are not used: failed sign-ins are counted in
/// the audit log (``LedgerSQL/auditTally(action:actor:address:since:)``).
enum StaffAccountTable: LedgerTable {
    static let name = "staff_accounts"
    static let columns = allColumns()

    enum Column: String, CaseIterable {
        case name
        case role
        case passwordHash = "password_hash"
        case totpSecret = "totp_secret"
        case disabledAt = "disabled_at"
        case createdAt = "created_at"
        case passwordChangedAt = "password_changed_at"
    }
}
