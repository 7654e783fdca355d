import Foundation

/// What ``Simulation`` runs.
public struct SimulationConfiguration: Sendable {
    /// How many players; every fifth device is shared by two of them.
    public var players: Int
    /// How many purchases the players start in all.
    public var purchases: Int
    /// Seeds every fault decision.
    public var seed: UInt64
    /// The ledger URL; `nil` for a new SQLite file in the work directory.
    public var databaseURL: String?
    /// The faults and their rates.
    public var faults: FaultRates
    /// How often the server's reconciler runs during the run, in seconds; 0 runs it only
    /// when the run quiesces. Each pass re-reads the last hour of Apple's notification
    /// history, so a long, busy run wants it rare.
    public var reconcilerIntervalSeconds: Double

    /// Creates a configuration.
    public init(
        players: Int = 20, purchases: Int = 200, seed: UInt64 = 1, databaseURL: String? = nil,
        faults: FaultRates = .all, reconcilerIntervalSeconds: Double = 10
    ) {
        self.players = players
        self.purchases = purchases
        self.seed = seed
        self.databaseURL = databaseURL
        self.faults = faults
        self.reconcilerIntervalSeconds = reconcilerIntervalSeconds
    }

    /// The longest reconciler interval, in seconds: a year, as the server accepts.
    public static let longestReconcilerInterval: Double = 366 * 86_400

    /// Problems that make the configuration unusable.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if players < 1 { problems.append("players must be at least 1") }
        if purchases < 0 { problems.append("purchases must not be negative") }
        if !(reconcilerIntervalSeconds >= 0 && reconcilerIntervalSeconds <= Self.longestReconcilerInterval) {
            problems.append(
                "the reconciler interval must be from 0 to \(Self.longestReconcilerInterval) seconds (a year), "
                    + "not \(reconcilerIntervalSeconds)")
        }
        return problems
    }
}
