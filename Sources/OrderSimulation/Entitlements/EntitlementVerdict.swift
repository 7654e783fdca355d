/// What ``EntitlementOracle`` concluded.
public struct EntitlementVerdict: Codable, Hashable, Sendable {
    /// Chains (and non-renewing purchases) Apple sold or shared.
    public var chains: Int
    /// Paid periods (transactions) of those chains.
    public var periods: Int
    /// Paid periods neither refunded nor revoked at the end.
    public var standingPeriods: Int
    /// Chains Apple entitles at the end.
    public var entitledByApple: Int
    /// Entitlements the ledger calls entitling at the end.
    public var entitledByLedger: Int
    /// Every chain found wrong.
    public var violations: [EntitlementViolation]
    /// Standing periods the ledger entitled without a gap to their end (the others ended
    /// before the ledger learnt of them, or are violations).
    public var periodsEntitledInTime = 0
    /// Standing periods no longer than the lag bound that ended before the ledger entitled
    /// them (a lost notification recovered later); each still had to be entitled by the
    /// end when Apple entitles its chain then.
    public var periodsEntitledAfterTheirEnd = 0
    /// The longest time from a period's start to the stretch entitled without a gap to its
    /// end, among ``periodsEntitledInTime``.
    public var longestPeriodLagSeconds: Double = 0

    /// Whether the right player was entitled to every paid period and nobody is entitled
    /// where Apple is not.
    public var holds: Bool { violations.isEmpty }

    /// Violation kind → how many.
    public var violationCounts: [EntitlementViolation.Kind: Int] {
        Dictionary(grouping: violations, by: \.kind).mapValues(\.count)
    }

    /// Creates a verdict.
    public init(
        chains: Int, periods: Int, standingPeriods: Int, entitledByApple: Int, entitledByLedger: Int,
        violations: [EntitlementViolation]
    ) {
        self.chains = chains
        self.periods = periods
        self.standingPeriods = standingPeriods
        self.entitledByApple = entitledByApple
        self.entitledByLedger = entitledByLedger
        self.violations = violations
    }
}

extension EntitlementViolation.Kind: CodingKeyRepresentable {}
