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
    /// How often the simulation runs the server's reconciler during the run, in seconds
    /// (a serial run counts purchases instead, see ``serial``); 0 runs it only
    /// when the run quiesces. Each pass re-reads the last hour of Apple's notification
    /// history, so a long, busy run wants it rare.
    public var reconcilerIntervalSeconds: Double
    /// Whether devices take turns: one purchase at a time across the whole run, in an order
    /// the seed draws, each turn ending when its app has nothing left to do, server restarts
    /// made between turns and reconciler passes every ``serialReconcilerEvery`` purchases
    /// (when ``reconcilerIntervalSeconds`` is not 0). Slower, and as close to a replay of
    /// the seed as the run gets (docs/RELIABILITY.md says how close).
    public var serial: Bool
    /// Where to write the offenders' history (`simulation-SEED-offenders.json`): always
    /// when set; when `nil`, in the current directory and only if something offended or
    /// stayed in flight.
    public var historyDirectory: URL?
    /// How many more rounds of quiescing (devices, notifications, a reconciler pass) the
    /// run waits when purchases are still in flight at the first judgement, before it
    /// ends inconclusive.
    public var extraQuiesceRounds: Int

    /// How many purchase server instances share the database (PostgreSQL only for more than
    /// one): devices are spread over them and server restarts strike each.
    public var instances: Int

    /// How many subscription players (besides ``players``): each buys vip.monthly,
    /// levelpack1 and seasonpass through the SDK, then lives ``subscriptionSteps``
    /// subscription periods of renewals, billing failures, grace periods, upgrades,
    /// downgrades, cancellations, refunds of periods, family sharing and restores.
    public var subscriptionPlayers: Int
    /// How many steps each subscription player lives: one subscription period each (a
    /// 30-day month lasts a second in a run).
    public var subscriptionSteps: Int

    /// How many of ``players`` are Android players: each on a phone of their own, buying
    /// the consumables on Google Play through the SDK's Play store client, and the server
    /// delivering, acknowledging and taking back their purchases by Google's word
    /// (``SimulationPlayClock`` says how Google's three days pass).
    public var androidPlayers: Int

    /// What the phones buy through: the emulator in process, or the SDK's StoreKit adapters
    /// over StoreKit for Linux (slower: HTTP and polling, as on a device).
    public var phoneStore: PhoneStore

    /// Purchases between two reconciler passes in a serial run.
    public static let serialReconcilerEvery = 200

    /// Creates a configuration; `androidPlayers` defaults to a fifth of `players`.
    public init(
        players: Int = 20, purchases: Int = 200, seed: UInt64 = 1, databaseURL: String? = nil,
        faults: FaultRates = .all, reconcilerIntervalSeconds: Double = 10, serial: Bool = false,
        historyDirectory: URL? = nil, extraQuiesceRounds: Int = 2, instances: Int = 1, subscriptionPlayers: Int = 2,
        subscriptionSteps: Int = 8, phoneStore: PhoneStore = .emulator, androidPlayers: Int? = nil
    ) {
        self.players = players
        self.purchases = purchases
        self.seed = seed
        self.databaseURL = databaseURL
        self.faults = faults
        self.reconcilerIntervalSeconds = reconcilerIntervalSeconds
        self.serial = serial
        self.historyDirectory = historyDirectory
        self.extraQuiesceRounds = extraQuiesceRounds
        self.instances = instances
        self.subscriptionPlayers = subscriptionPlayers
        self.subscriptionSteps = subscriptionSteps
        self.phoneStore = phoneStore
        self.androidPlayers = androidPlayers ?? players / 5
    }

    /// The longest reconciler interval, in seconds: a year, as the server accepts.
    public static let longestReconcilerInterval: Double = 366 * 86_400

    /// Problems that make the configuration unusable.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        if players < 1 { problems.append("players must be at least 1") }
        if purchases < 0 { problems.append("purchases must not be negative") }
        if extraQuiesceRounds < 0 { problems.append("extra quiesce rounds must not be negative") }
        if subscriptionPlayers < 0 { problems.append("subscription players must not be negative") }
        if subscriptionSteps < 0 { problems.append("subscription steps must not be negative") }
        if androidPlayers < 0 || androidPlayers > players {
            problems.append("android players must be from 0 to the \(players) players, not \(androidPlayers)")
        }
        if instances < 1 { problems.append("instances must be at least 1") }
        if instances > 1 && databaseURL?.hasPrefix("postgres") != true {
            problems.append(
                "\(instances) server instances need a PostgreSQL database (--database postgres://…): "
                    + "an SQLite ledger is one process's file")
        }
        if !(reconcilerIntervalSeconds >= 0 && reconcilerIntervalSeconds <= Self.longestReconcilerInterval) {
            problems.append(
                "the reconciler interval must be from 0 to \(Self.longestReconcilerInterval) seconds (a year), "
                    + "not \(reconcilerIntervalSeconds)")
        }
        return problems
    }
}
