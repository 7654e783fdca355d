import Foundation
import OrderSimulation

extension SimulationSummary {
    /// The subscription players' figures, the entitlement oracle's counts and the entitlement
    /// lag; nothing when the run had no subscription player.
    var subscriptionLines: [String] {
        let figures = report.subscriptions
        guard figures.players > 0 else { return [] }
        let verdict = figures.verdict
        let violations = EntitlementViolation.Kind.allCases.map { "\($0.rawValue) \(verdict.violationCounts[$0] ?? 0)" }
        let lag = figures.lag
        let unmeasured =
            lag.unmeasuredActions.isEmpty
            ? ""
            : ": "
                + lag.unmeasuredActions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
                    separator: ", ")
        let worst = lag.worst.map { " (\($0.action) of \($0.originalTransactionId))" } ?? ""
        return [
            """
            subscriptions: \(figures.players) players, \(figures.purchases) purchases, \(figures.renewals) renewals \
            (\(figures.renewalNotificationsDropped) notifications dropped), \(figures.downgrades) downgrades, \
            \(figures.cancellations) cancellations, \(figures.familyShares) family shares
            """,
            """
            entitlements: \(verdict.chains) chains, \(verdict.periods) periods (\(verdict.standingPeriods) standing), \
            entitled by Apple \(verdict.entitledByApple), by the ledger \(verdict.entitledByLedger); \
            \(violations.joined(separator: ", "))
            """,
            "paid periods: \(verdict.periodsEntitledInTime) entitled without a gap to their end (from at most "
                + "\(String(format: "%.2f", verdict.longestPeriodLagSeconds)) s after their start), "
                + "\(verdict.periodsEntitledAfterTheirEnd) ended before the ledger learnt of them",
            "entitlement lag: max \(String(format: "%.2f", lag.maximumSeconds)) s\(worst) over \(lag.measured) "
                + "changes of Apple's (\(lag.unmeasured) overtaken before the ledger showed them\(unmeasured))",
        ]
    }
}
