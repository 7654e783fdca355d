import Foundation
import LedgerTestSupport
import OrderSimulation
import Testing

/// Subscription players under subscription faults, end to end on both databases: the
/// entitlement oracle finds the right player entitled to every paid period and nobody
/// entitled past Apple's word, and the report carries the figures and the lag.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SubscriptionSimulationTests {
    /// Every subscription fault at a high rate, and notifications dropped (renewals' among
    /// them).
    private static let faults = FaultRates(rates: [
        .billingFailure: 0.3, .gracePeriod: 0.5, .subscriptionUpgrade: 0.3, .periodRefund: 0.15,
        .familyRevoke: 0.7, .restoreOnSecondDevice: 0.3, .restoreBySecondAccount: 0.3, .notificationDrop: 0.3,
        .notificationDuplicate: 0.1, .notificationReorder: 0.2,
    ])

    /// Where a run writes its history file (when something offends, or was waited for).
    private static let historyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "storekeeper-subscription-simulation")

    private static func failures(_ report: SimulationReport) -> String {
        (report.offenders.map { "\($0.kind) \($0.transactionId): \($0.detail)" }
            + report.subscriptions.verdict.violations.map {
                "\($0.kind) \($0.originalTransactionId) (\($0.playerId ?? "-")): \($0.detail)"
            })
            .joined(separator: "\n")
    }

    private static func check(_ report: SimulationReport) {
        let figures = report.subscriptions
        #expect(report.verdict == .pass, "\(failures(report))")
        #expect(figures.holds, "\(failures(report))")
        #expect(figures.players == 4)
        #expect(figures.renewals > 0)
        #expect(figures.verdict.chains >= 12, "a vip chain, a level pack and a season pass each")
        #expect(figures.verdict.standingPeriods > figures.players * 3)
        #expect(figures.verdict.entitledByApple > 0)
        #expect(figures.lag.measured > 0)
        let struck = [FaultKind.billingFailure, .subscriptionUpgrade, .periodRefund, .restoreOnSecondDevice]
            .filter { report.faults[$0, default: 0] > 0 }
        #expect(struck.count >= 3, "\(report.faults)")
    }

    @Test func subscriptionFaultsKeepEntitlementsRightOnSQLite() async throws {
        let report = try await Simulation(
            SimulationConfiguration(
                players: 2, purchases: 10, seed: 16, faults: Self.faults, historyDirectory: Self.historyDirectory,
                subscriptionPlayers: 4, subscriptionSteps: 10)
        ).run()
        Self.check(report)
    }

    @Test func subscriptionFaultsKeepEntitlementsRightOnPostgreSQL() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        defer { database.remove() }
        let report = try await Simulation(
            SimulationConfiguration(
                players: 2, purchases: 10, seed: 61, databaseURL: database.url, faults: Self.faults,
                historyDirectory: Self.historyDirectory, subscriptionPlayers: 4, subscriptionSteps: 10)
        ).run()
        Self.check(report)
    }
}
