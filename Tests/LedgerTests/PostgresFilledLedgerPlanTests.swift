import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// ``FilledLedgerPlanTests`` on PostgreSQL: the same paths on a filled, analyzed ledger,
/// with every plan the server's connections ran logged by PostgreSQL's own `auto_explain`
/// (nested statements included, so the delivery function's statements are checked too) and
/// sequential scans priced out (`enable_seqscan = off`), so that a sequential scan, or an
/// index walked without a condition, means no index can serve the statement: on a small
/// ledger the planner would otherwise rightly prefer a sequential scan that 10 million rows
/// would make slow.
///
/// The suite's tests run one after the other: each reads the plans the cluster's log holds
/// from its start on, and another's plans among them would be checked as its own.
@Suite(.serialized)
struct PostgresFilledLedgerPlanTests {
    /// The database's settings for the paths: every plan logged, sequential scans priced out.
    static let settings = [
        "session_preload_libraries = 'auto_explain'", "auto_explain.log_min_duration = 0",
        "auto_explain.log_nested_statements = on", "enable_seqscan = off",
    ]

    @Test("no statement on the server's paths scans a large table of a filled PostgreSQL ledger")
    func noPathScansALargeTable() async throws {
        let ledger = try await FilledPostgresLedger.make(settings: Self.settings)
        let start = try await PostgresCluster.shared.serverLog().end
        try await ledger.withStore { store in
            try await FilledLedgerPaths.run(on: store, player: ledger.summary.whale, now: ledger.now)
        }
        let log = try await PostgresCluster.shared.serverLog(from: start).text
        let plans = Self.plans(in: log)
        #expect(plans.count > 30, "auto_explain logged \(plans.count) plans")
        var scans: [String] = []
        for plan in plans {
            for node in Self.wholeTableWalks(in: plan) where !FilledLedgerPlanTests.isKnown(plan) {
                scans.append("\(node)\n    in: \(plan.prefix(600))")
            }
        }
        #expect(scans.isEmpty, "plans that walk a large table:\n\(scans.joined(separator: "\n"))")
    }

    /// `auto_explain`'s entries in `log`: each from its `duration: … plan:` line through its
    /// indented lines.
    static func plans(in log: String) -> [String] {
        var plans: [String] = []
        var current: [Substring]?
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("LOG:  duration:") && line.contains("plan:") {
                if let current { plans.append(current.joined(separator: "\n")) }
                current = []
            } else if line.hasPrefix("\t") || line.hasPrefix(" "), current != nil {
                current?.append(line)
            } else if let finished = current {
                plans.append(finished.joined(separator: "\n"))
                current = nil
            }
        }
        if let current { plans.append(current.joined(separator: "\n")) }
        return plans
    }

    /// The nodes of `plan` that walk a large table from end to end: a sequential scan, or an
    /// index or index-only scan with no `Index Cond` (every entry of the index).
    static func wholeTableWalks(in plan: String) -> [String] {
        let lines = plan.split(separator: "\n").map(String.init)
        var walks: [String] = []
        for (index, line) in lines.enumerated() {
            guard let table = Self.scannedTable(line), FilledLedgerPlanTests.largeTables.contains(table) else {
                continue
            }
            if line.contains("Seq Scan on") {
                walks.append(line.trimmingCharacters(in: .whitespaces))
                continue
            }
            guard line.contains("Index Scan") || line.contains("Index Only Scan") else { continue }
            let details = lines[(index + 1)...].prefix { !$0.contains("->") && Self.scannedTable($0) == nil }
            if !details.contains(where: { $0.contains("Index Cond:") }) {
                walks.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return walks
    }

    /// The table a plan node scans (`… on purchases …`), if the line is a scan node.
    static func scannedTable(_ line: String) -> String? {
        guard line.contains("Scan"), let on = line.range(of: " on ") else { return nil }
        let table = line[on.upperBound...].prefix { $0.isLetter || $0 == "_" }
        return table.isEmpty ? nil : String(table)
    }
}
