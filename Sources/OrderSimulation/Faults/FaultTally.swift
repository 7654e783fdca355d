/// How many faults of each kind a run actually injected.
actor FaultTally {
    private(set) var counts: [FaultKind: Int] = [:]

    /// Counts one `kind`.
    func count(_ kind: FaultKind, times: Int = 1) {
        guard times > 0 else { return }
        counts[kind, default: 0] += times
    }
}
