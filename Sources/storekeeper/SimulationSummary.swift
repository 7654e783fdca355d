import OrderSimulation

/// A simulation report as text: the oracle's counts and the faults, then each offender's
/// history.
struct SimulationSummary {
    let report: SimulationReport

    init(_ report: SimulationReport) {
        self.report = report
    }

    var text: String {
        let faults = report.faults.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
        return """
            simulate: \(report.players) players, \(report.purchases) purchases, seed \(report.seed), \
            \(String(format: "%.1f", report.elapsedSeconds)) s
            charged \(report.counts.charged), delivered \(report.counts.delivered), refunded \(report.counts.refunded), \
            reversed \(report.reversed)
            lost \(report.counts.lost), duplicates \(report.counts.duplicates), wrongPlayer \(report.counts.wrongPlayer), \
            forgedDelivered \(report.counts.forgedDelivered)
            faults injected: \(faults.isEmpty ? "none" : faults.joined(separator: ", "))
            purchase calls: \(report.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            \(report.holds ? "PASS: every charge delivered exactly once, to the player who paid" : "FAIL")
            """
    }

    /// Each offending transaction with its history, and how to replay the run.
    var offenders: String {
        var lines = ["\(report.offenders.count) offending transactions; replay with --seed \(report.seed)"]
        for offender in report.offenders {
            lines.append("\(offender.kind.rawValue) \(offender.transactionId): \(offender.detail)")
            lines += offender.history.map { "    \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
