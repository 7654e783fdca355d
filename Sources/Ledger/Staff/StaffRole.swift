/// What a support console account may do. Each role can do everything the one before it
/// can.
public enum StaffRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Reads players, transactions, the owed queue and the overview.
    case viewer
    /// Also resolves lookups (binds and delivers what Apple charged) and grants
    /// compensation up to the configured per-grant limit, with a reason.
    case agent
    /// Everything, including staff accounts and the audit log.
    case admin

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .agent: 1
        case .admin: 2
        }
    }

    /// Orders roles by what they may do: `viewer < agent < admin`.
    public static func < (lhs: StaffRole, rhs: StaffRole) -> Bool { lhs.rank < rhs.rank }
}
