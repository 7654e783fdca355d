/// What ``IntegrityOracle`` concluded.
public struct IntegrityVerdict: Codable, Hashable, Sendable {
    /// The counts.
    public var counts: IntegrityCounts
    /// Every offending transaction.
    public var violations: [IntegrityViolation]

    /// Whether nothing was lost, duplicated, misdelivered or forged.
    public var holds: Bool { violations.isEmpty }
}
