import ArgumentParser
import Foundation
import OrderSimulation

/// `storekeeper simulate`: the order-integrity simulation and its oracle.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run players, devices, the server and the App Store under faults, then prove no order was lost.",
        discussion: """
            Runs the App Store emulator, the purchase server and one SDK pipeline per simulated device in \
            this process, injects every fault (each at its rate), quiesces, and compares Apple's charges with \
            the server's ledger, and Apple's subscription periods with the ledger's entitlements. Exits 1 when \
            a charge was lost, delivered twice, delivered to the wrong player, or a forgery was delivered, or when \
            a paid period was not entitled to the right player or an entitlement outlived Apple's expiry plus \
            grace, printing the seed and each offending transaction's history; \
            exits 3 (inconclusive) when nothing offended but a purchase was still in flight after every round \
            of waiting. Each offending or in-flight purchase's full history goes to \
            simulation-SEED-offenders.json (in --history-dir, or the current directory). \
            Fault kinds: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")). docs/RELIABILITY.md \
            says what each exercises.
            """
    )

    @Option(help: "How many players (every fifth device is shared by two).")
    var players = 20

    @Option(help: "How many purchases in all.")
    var purchases = 200

    @Option(help: "The seed of every fault decision.")
    var seed: UInt64 = 1

    @Option(help: "The ledger: sqlite:PATH or postgres://… (default: a new SQLite file, removed afterwards).")
    var database: String?

    @Option(
        help: "all, none, or a comma-separated list of fault kinds, each optionally =RATE (appKill,networkDrop=0.2).")
    var faults = "all"

    @Option(help: "Seconds between the server's reconciler passes during the run; 0 for only the final pass.")
    var reconcilerInterval: Double = 10

    @Flag(
        help: """
            Devices take turns, one purchase at a time in an order the seed draws: slower, and as close to \
            an exact replay of the seed as the run gets.
            """)
    var serial = false

    @Option(
        help: """
            Where to write simulation-SEED-offenders.json: always when given; otherwise in the current \
            directory, only when something offended or stayed in flight.
            """)
    var historyDir: String?

    @Option(
        help: """
            How many purchase server instances share the database (PostgreSQL only for more than one): \
            devices are spread over them, server restarts strike each.
            """)
    var instances = 1

    @Option(
        help: """
            How many subscription players besides --players: each buys vip.monthly, levelpack1 and seasonpass, \
            then lives --subscription-steps steps of renewals, billing failures, grace periods, upgrades, \
            refunds of periods, family sharing and restores; the oracle checks their entitlements.
            """)
    var subscriptionPlayers = 2

    @Option(
        help:
            "How many subscription periods (a second each: a month is scaled to a second) each subscription player lives."
    )
    var subscriptionSteps = 8

    @Option(
        help: """
            What the phones buy through: emulator (the emulator's device calls, in process) or storekit \
            (the SDK's StoreKit adapters, StoreKit 2 or StoreKit 1 as each phone's generation, over \
            StoreKit for Linux and the emulator's HTTP device API on a port of its own).
            """)
    var store: PhoneStore = .emulator

    @Option(
        help: """
            How many of --players are Android players (default: a fifth): each buys on Google Play through \
            the SDK's Play store client, with pending purchases, refunds and acknowledgement failures; the \
            oracle adds that Google refunds no purchase for want of acknowledgement.
            """)
    var androidPlayers: Int?

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    /// The exit status of a run that proved nothing: a purchase was still in flight.
    static let inconclusiveStatus: Int32 = 3

    func validate() throws {
        let problems = try simulationConfiguration().validationProblems()
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
    }

    func run() async throws {
        let report = try await Simulation(try simulationConfiguration()).run()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(SimulationSummary(report).text)
        }
        switch report.verdict {
        case .pass:
            return
        case .fail:
            FileHandle.standardError.write(Data(SimulationSummary(report).offenders.utf8))
            throw ExitCode(1)
        case .inconclusive:
            FileHandle.standardError.write(Data(SimulationSummary(report).inFlight.utf8))
            throw ExitCode(Self.inconclusiveStatus)
        }
    }

    private func simulationConfiguration() throws -> SimulationConfiguration {
        let rates: FaultRates
        do {
            rates = try FaultRates(parsing: faults)
        } catch {
            throw ValidationError(error.description)
        }
        return SimulationConfiguration(
            players: players, purchases: purchases, seed: seed, databaseURL: database, faults: rates,
            reconcilerIntervalSeconds: reconcilerInterval, serial: serial,
            historyDirectory: historyDir.map { URL(fileURLWithPath: $0, isDirectory: true) }, instances: instances,
            subscriptionPlayers: subscriptionPlayers, subscriptionSteps: subscriptionSteps, phoneStore: store,
            androidPlayers: androidPlayers)
    }
}

extension PhoneStore: ExpressibleByArgument {}
