/// How many faults of each kind a run actually injected, and how the devices' purchase
/// calls ended.
actor FaultTally {
    private(set) var counts: [FaultKind: Int] = [:]
    private(set) var outcomes: [String: Int] = [:]

    /// Counts one `kind`.
    func count(_ kind: FaultKind, times: Int = 1) {
        guard times > 0 else { return }
        counts[kind, default: 0] += times
    }

    /// Counts a purchase call that ended with `outcome` (`delivered`, `failed:REASON`, `killed`, …).
    func count(outcome: String) {
        outcomes[outcome, default: 0] += 1
    }
}
