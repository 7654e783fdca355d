import Foundation
import LedgerTestSupport
import OrderSimulation
import Testing

/// The order-integrity simulation end to end: emulator, server and SDK devices under
/// every fault, judged by the oracle.
@Suite(.serialized, .timeLimit(.minutes(30))) struct SimulationTests {
    private static func failures(_ report: SimulationReport) -> String {
        report.offenders.map {
            "\($0.kind) \($0.transactionId): \($0.detail)\n  " + $0.history.joined(separator: "\n  ")
        }
        .joined(separator: "\n")
    }

    /// CI's run: 2,000 purchases over ten seeds with every fault on, two of the ten players
    /// on Google Play. Nothing is lost, delivered twice, delivered to the wrong player,
    /// forged or refunded by Google for want of acknowledgement, and every kind of fault was
    /// injected somewhere.
    @Test func twoThousandPurchasesOverTenSeedsLoseNothing() async throws {
        var injected: [FaultKind: Int] = [:]
        var charged = 0
        for seed in UInt64(1)...10 {
            let report = try await Simulation(SimulationConfiguration(players: 10, purchases: 200, seed: seed)).run()
            #expect(report.holds, "seed \(seed):\n\(Self.failures(report))")
            #expect(
                report.counts.lost == 0 && report.counts.duplicates == 0 && report.counts.wrongPlayer == 0
                    && report.counts.forgedDelivered == 0)
            #expect(report.counts.charged >= 100, "seed \(seed): most purchases are paid for")
            #expect(report.counts.delivered + report.counts.refunded >= report.counts.charged, "seed \(seed)")
            #expect(report.seed == seed)
            #expect(report.android.players == 2)
            #expect(report.counts.refundedUnacknowledged == 0)
            injected.merge(report.faults, uniquingKeysWith: +)
            charged += report.counts.charged
        }
        #expect(charged >= 1_500)
        let missing = FaultKind.allCases.filter { injected[$0, default: 0] == 0 }
        #expect(missing.isEmpty, "never injected: \(missing)")
    }

    @Test func withoutFaultsEveryPurchaseIsChargedAndDeliveredOnce() async throws {
        let report = try await Simulation(
            SimulationConfiguration(players: 4, purchases: 40, seed: 3, faults: .none, subscriptionPlayers: 0)
        ).run()
        #expect(report.holds, "\(Self.failures(report))")
        #expect(report.counts.charged == 40)
        #expect(report.counts.delivered == 40)
        #expect(report.faults.isEmpty)
        #expect(report.outcomes == ["delivered": 40])
    }

    /// Three server instances on one PostgreSQL database, devices spread over them, each
    /// restarted by the faults.
    @Test func threeInstancesOnOnePostgreSQLLoseNothing() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        defer { database.remove() }
        let report = try await Simulation(
            SimulationConfiguration(
                players: 9, purchases: 240, seed: 21, databaseURL: database.url,
                faults: try FaultRates(
                    parsing: FaultKind.allCases.map { $0 == .serverRestart ? "serverRestart=0.05" : $0.rawValue }
                        .joined(separator: ",")),
                instances: 3)
        ).run()
        #expect(report.verdict == .pass, "\(Self.failures(report))")
        #expect(report.instances == 3)
        #expect(report.restartsByInstance.count == 3)
        #expect(report.restartsByInstance.allSatisfy { $0 > 0 }, "\(report.restartsByInstance)")
        #expect(report.counts.charged >= 120)
    }

    /// The phones buy through the SDK's StoreKit adapters (StoreKit 2, and StoreKit 1 on
    /// every fourth device) over StoreKit for Linux, each app launch its own StoreKit
    /// process, under every fault: the oracle holds as it does in process.
    @Test func phonesOnTheStoreKitAdaptersLoseNothing() async throws {
        let report = try await Simulation(
            SimulationConfiguration(
                players: 8, purchases: 120, seed: 26, subscriptionPlayers: 1, subscriptionSteps: 4,
                phoneStore: .storeKit)
        ).run()
        #expect(report.holds, "\(Self.failures(report))")
        #expect(report.verdict == .pass)
        #expect(report.phoneStore == .storeKit)
        #expect(report.counts.charged >= 60)
        #expect(report.faults[.appKill, default: 0] > 0)
        #expect(report.faults[.serverRestart, default: 0] > 0)
    }

    /// Android players on Google Play under every fault (pending purchases, refunds,
    /// acknowledgement failures, lost and doubled notifications, kills, network faults):
    /// their charges are delivered once to the player who paid, and Google refunds none of
    /// them for want of acknowledgement.
    @Test func androidPlayersLoseNothingAndGoogleRefundsNothingUnacknowledged() async throws {
        let report = try await Simulation(
            SimulationConfiguration(
                players: 6, purchases: 120, seed: 31,
                faults: FaultRates(
                    rates: FaultRates.all.rates.merging(
                        [.playPending: 0.3, .playVoid: 0.2, .playAcknowledgementFailure: 0.5], uniquingKeysWith: { $1 })
                ),
                subscriptionPlayers: 0, androidPlayers: 4)
        ).run()
        #expect(report.verdict == .pass, "\(Self.failures(report))")
        #expect(report.android.players == 4)
        // A consumable whose consumption failed is not bought again on its phone until the
        // reconciler consumes it (Play's ITEM_ALREADY_OWNED): many purchases are refused so.
        #expect(report.android.charged >= 20)
        #expect(report.android.pending > 0)
        #expect(report.android.voided > 0)
        #expect(report.android.refundedUnacknowledged == 0)
        #expect(report.faults[.playAcknowledgementFailure, default: 0] > 0)
    }

    /// The rule can fail: a server whose every acknowledgement fails leaves Google's three
    /// days to run out, and the oracle reports each purchase Google then refunded.
    @Test func aServerThatNeverAcknowledgesIsCaughtByGooglesThreeDayRule() async throws {
        // The failing run writes its offenders' history: into a directory of its own.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("three-day-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try await Simulation(
            SimulationConfiguration(
                players: 2, purchases: 4, seed: 32, faults: try FaultRates(parsing: "playAcknowledgementFailure=1"),
                historyDirectory: directory, subscriptionPlayers: 0, androidPlayers: 2)
        ).run()
        // A consumable never consumed cannot be bought again on its phone: at least one
        // purchase per phone is charged.
        #expect(report.verdict == .fail)
        #expect(report.android.charged >= 2)
        #expect(report.android.refundedUnacknowledged == report.android.charged)
        #expect(report.counts.refundedUnacknowledged == report.android.charged)
        #expect(
            report.offenders.map(\.kind)
                == Array(repeating: .refundedUnacknowledged, count: report.android.charged))
        #expect(report.counts.lost == 0 && report.counts.duplicates == 0)
        #expect(report.historyFile?.hasPrefix(directory.path) == true)
    }

    @Test func severalInstancesNeedPostgreSQL() {
        let problems = SimulationConfiguration(instances: 2).validationProblems()
        #expect(problems.contains { $0.contains("PostgreSQL") })
    }

    @Test func postgreSQLLosesNothingEither() async throws {
        let database = try await StoreKind.postgres.makeDatabase()
        defer { database.remove() }
        let report = try await Simulation(
            SimulationConfiguration(players: 10, purchases: 200, seed: 42, databaseURL: database.url)
        ).run()
        #expect(report.holds, "\(Self.failures(report))")
        #expect(report.counts.charged >= 100)
        #expect(report.faults[.appKill, default: 0] > 0)
    }
}
