import PurchaseSDK

/// How many faults of each kind a run actually injected, and how the devices' purchase
/// calls ended.
actor FaultTally {
    private(set) var counts: [FaultKind: Int] = [:]
    private(set) var outcomes: [String: Int] = [:]
    /// Every purchase call's outcome as `DEVICE OUTCOME`, in the order the calls ended.
    private(set) var outcomeSequence: [String] = []

    /// Counts one `kind`.
    func count(_ kind: FaultKind, times: Int = 1) {
        guard times > 0 else { return }
        counts[kind, default: 0] += times
    }

    /// Counts a purchase call on `device` that ended with `outcome` (`delivered`,
    /// `failed:REASON`, `killed`, …).
    func count(outcome: String, device: String) {
        outcomes[outcome, default: 0] += 1
        outcomeSequence.append("\(device) \(outcome)")
    }

    /// Counts a purchase call on `device` that ended with the pipeline's `outcome`.
    func count(_ outcome: PurchaseOutcome, device: String) {
        switch outcome {
        case .delivered: count(outcome: "delivered", device: device)
        case .pending: count(outcome: "pending", device: device)
        case .cancelled: count(outcome: "cancelled", device: device)
        case .failed(let record):
            if case .failed(let reason) = record.state { count(outcome: "failed:\(reason)", device: device) }
        }
    }
}
