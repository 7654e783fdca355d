import OrderSimulation

/// A simulation report as text: the oracle's counts and the faults, then each offender's
/// history, or what each purchase still in flight waited for.
struct SimulationSummary {
    let report: SimulationReport

    init(_ report: SimulationReport) {
        self.report = report
    }

    var text: String {
        let faults = report.faults.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
        let verdict =
            switch report.verdict {
            case .pass:
                "PASS: every charge delivered exactly once, to the player who paid"
                    + (report.android.players > 0
                        ? "; no Google Play purchase refunded for want of acknowledgement" : "")
                    + (report.subscriptions.players > 0
                        ? "; every paid period entitled to the right player, nobody past Apple's expiry" : "")
            case .fail: "FAIL"
            case .inconclusive:
                "INCONCLUSIVE: \(report.counts.inFlight) purchases still in flight after "
                    + "\(report.extraQuiesceRounds) extra rounds of waiting; nothing proven about them"
            }
        var lines = [
            """
            simulate: \(report.players) players, \(report.purchases) purchases, seed \(report.seed)\
            \(report.serial ? ", serial" : "")\(report.phoneStore == .storeKit ? ", phones on StoreKit" : ""), \
            \(String(format: "%.1f", report.elapsedSeconds)) s
            """,
            "time: " + Self.phases(report.phaseSeconds),
            """
            charged \(report.counts.charged), delivered \(report.counts.delivered), refunded \(report.counts.refunded), \
            reversed \(report.reversed)
            """,
            """
            lost \(report.counts.lost), duplicates \(report.counts.duplicates), wrongPlayer \(report.counts.wrongPlayer), \
            forgedDelivered \(report.counts.forgedDelivered), refundedUnacknowledged \(report.counts.refundedUnacknowledged), \
            inFlight \(report.counts.inFlight)
            """,
            "faults injected: \(faults.isEmpty ? "none" : faults.joined(separator: ", "))",
            "purchase calls: "
                + report.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
            "outcome digest: \(report.outcomeDigest)",
        ]
        lines += androidLines
        lines += subscriptionLines
        if !report.resolvedInFlight.isEmpty {
            lines.append(
                "waited \(report.extraQuiesceRounds) extra rounds for \(report.resolvedInFlight.count) purchases "
                    + "in flight at the first judgement; they settled")
        }
        if let file = report.historyFile { lines.append("history: \(file)") }
        lines.append(verdict)
        return lines.joined(separator: "\n")
    }

    /// Each offending transaction with its history, each entitlement violation, and how to
    /// replay the run.
    var offenders: String {
        var lines = ["\(report.offenders.count) offending transactions; replay with --seed \(report.seed)"]
        for offender in report.offenders {
            lines.append("\(offender.kind.rawValue) \(offender.transactionId): \(offender.detail)")
            lines += offender.history.map { "    \($0)" }
        }
        for violation in report.subscriptions.verdict.violations {
            lines.append(
                "\(violation.kind.rawValue) \(violation.originalTransactionId) "
                    + "(\(violation.playerId ?? "no player")): \(violation.detail)")
            lines += violation.history.map { "    \($0)" }
        }
        if let file = report.historyFile { lines.append("full history: \(file)") }
        return lines.joined(separator: "\n") + "\n" + (report.inFlight.isEmpty ? "" : inFlight)
    }

    /// Each purchase still in flight with what it waited for.
    var inFlight: String {
        var lines = [
            "INCONCLUSIVE: \(report.inFlight.count) purchases still in flight, neither lost nor delivered; "
                + "replay with --seed \(report.seed)"
        ]
        for purchase in report.inFlight {
            let name = purchase.transactionId ?? "order \(purchase.appAccountToken ?? "?")"
            let would = purchase.wouldBe.map { " (would be \($0.rawValue))" } ?? ""
            lines.append("in flight \(name)\(would): \(purchase.detail)")
            lines += purchase.waits.map { "    waits for \($0.kind.rawValue): \($0.detail)" }
        }
        if let file = report.historyFile { lines.append("full history: \(file)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Android players' Google Play figures, when the run had any.
    private var androidLines: [String] {
        let android = report.android
        guard android.players > 0 else { return [] }
        return [
            """
            android: \(android.players) players, charged \(android.charged), pending \(android.pending) \
            (cancelled \(android.pendingCancelled)), voided \(android.voided), \
            refunded by Google unacknowledged \(android.refundedUnacknowledged)
            """
        ]
    }

    /// The phases' seconds, in the order they happen.
    private static func phases(_ phases: SimulationPhases) -> String {
        [
            ("purchasing", phases.purchasing), ("settling apps", phases.settlingApps),
            ("delivering notifications", phases.deliveringNotifications), ("reconciling", phases.reconciling),
            ("judging", phases.judging),
        ].map { "\($0.0) \(String(format: "%.1f", $0.1)) s" }.joined(separator: ", ")
    }
}
