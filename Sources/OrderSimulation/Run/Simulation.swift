import AppStoreEmulator
import AsyncHTTPClient
import Crypto
import Foundation
import Ledger
import Logging
import PurchaseServer
import StoreKeeperDev

/// The order-integrity simulation: the App Store emulator, the purchase server and one SDK
/// pipeline per simulated device in one process, with every fault of ``FaultRates`` on
/// (kills, reinstalls, network faults, server restarts, Apple outages, notification faults,
/// refunds, account switches, promoted purchases, Ask to Buy, a malicious device).
///
/// When every purchase has been made the run quiesces — faults off, killed apps relaunched,
/// retries done, notifications delivered, the reconciler run — and ``IntegrityOracle``
/// compares the emulator's charges with the server's ledger.
///
/// Every fault decision comes from the seed (each device rolls its own plan); the
/// interleaving of concurrent devices and the server's timing do not, so two runs of one
/// seed inject the same planned faults and nearly the same per-request ones.
public struct Simulation: Sendable {
    /// What runs.
    public let configuration: SimulationConfiguration
    private let logger: Logger

    /// Creates a simulation; the server logs to `logger` (critical only by default).
    public init(_ configuration: SimulationConfiguration, logger: Logger? = nil) {
        self.configuration = configuration
        self.logger =
            logger
            ?? {
                var quiet = Logger(label: "storekeeper-simulation")
                quiet.logLevel = .critical
                return quiet
            }()
    }

    /// Runs the simulation and judges it.
    public func run() async throws -> SimulationReport {
        let problems = configuration.validationProblems()
        guard problems.isEmpty else { throw SimulationError(problems.joined(separator: "; ")) }
        let started = ContinuousClock.now
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storekeeper-simulation-\(configuration.seed)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let playerSecret = Self.randomSecret()
        let stack = try await DevStack(
            DevStackConfiguration(
                databaseURL: configuration.databaseURL ?? "sqlite:\(directory.path)/ledger.sqlite",
                emulatorDirectory: directory.appendingPathComponent("emulator"), notificationTimeScale: 0.000_01,
                server: serverConfiguration(playerSecret: playerSecret), logger: logger))
        do {
            let report = try await run(on: stack, directory: directory, playerSecret: playerSecret, started: started)
            await stack.stop()
            return report
        } catch {
            await stack.stop()
            throw error
        }
    }

    private func run(
        on stack: DevStack, directory: URL, playerSecret: String, started: ContinuousClock.Instant
    ) async throws -> SimulationReport {
        let http = DeviceHTTPTransport.makeClient(connections: max(configuration.players, 8))
        do {
            let report = try await run(
                on: stack, http: http, directory: directory, playerSecret: playerSecret, started: started)
            try? await http.shutdown()
            return report
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func run(
        on stack: DevStack, http: HTTPClient, directory: URL, playerSecret: String, started: ContinuousClock.Instant
    ) async throws -> SimulationReport {
        let emulator = stack.emulator
        let rates = configuration.faults
        await emulator.setFaults(appleFaults)
        let tally = FaultTally()
        let book = PaymentBook()
        let serverURL = await stack.baseURL
        let world = SimulationWorld(
            emulator: emulator, serverURL: serverURL, http: http, playerSecret: playerSecret,
            directory: directory.appendingPathComponent("devices"), rates: rates, seed: configuration.seed, book: book,
            tally: tally, chaos: ServerChaos(stack: stack, tally: tally),
            attacker: try Attacker(
                baseURL: serverURL, transport: DeviceHTTPTransport(client: http), playerSecret: playerSecret,
                bundleId: emulator.configuration.bundleId, book: book,
                tally: tally),
            products: ["coins100", "coins500", "potion"])
        let devices = makeDevices(world)
        let shares = Self.shares(of: configuration.purchases, among: devices.count)

        await withTaskGroup(of: Void.self) { group in
            for (device, share) in zip(devices, shares) {
                group.addTask { await device.run(purchases: share) }
            }
        }

        // Quiesce: the faults end, every app finishes its work, Apple's notifications are
        // delivered and the reconciler reads Apple's history.
        await world.chaos.settle()
        let notificationFaults = await notificationFaultCounts(emulator)
        let appleFaults = await emulator.injectedFaults
        await emulator.setFaults(EmulatorFaults())
        try await quiesce(devices, for: .seconds(120))
        await emulator.waitForNotificationDeliveries()
        try await reconcile(stack)
        try await quiesce(devices, for: .seconds(30))

        var faults = await tally.counts.merging(notificationFaults, uniquingKeysWith: +)
        faults[.verifyReceiptOutage] = appleFaults["verifyReceipt", default: 0]
        faults[.serverAPIOutage] = appleFaults.filter { $0.key != "verifyReceipt" }.values.reduce(0, +)
        let report = try await judge(
            stack: stack, players: devices.flatMap(\.players), book: book, tally: tally,
            faults: faults.filter { $0.value > 0 },
            started: started)
        for device in devices { await device.shutDown() }
        return report
    }

    /// The devices: one per player, except every fifth, which two players share; every
    /// fourth speaks StoreKit 1 (receipts) instead of StoreKit 2.
    private func makeDevices(_ world: SimulationWorld) -> [SimulatedDevice] {
        var devices: [SimulatedDevice] = []
        var player = 0
        while player < configuration.players {
            let index = devices.count
            let shared = index % 5 == 4 && player + 1 < configuration.players
            let players = (player..<(player + (shared ? 2 : 1))).map { "player-\($0)" }
            devices.append(
                SimulatedDevice(
                    index: index, players: players, generation: index % 4 == 3 ? .storeKit1 : .storeKit2, world: world))
            player += players.count
        }
        return devices
    }

    private static func shares(of purchases: Int, among devices: Int) -> [Int] {
        (0..<devices).map { purchases / devices + ($0 < purchases % devices ? 1 : 0) }
    }

    private func quiesce(_ devices: [SimulatedDevice], for duration: Duration) async throws {
        let deadline = ContinuousClock.now + duration
        await withTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask { await device.quiesce(deadline: deadline) }
            }
        }
    }

    private func reconcile(_ stack: DevStack) async throws {
        guard let reconciler = try await stack.server.reconciler else { return }
        var failures = 0
        while true {
            do {
                _ = try await reconciler.run()
                return
            } catch {
                failures += 1
                guard failures < 5 else { throw error }
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    private func judge(
        stack: DevStack, players: [String], book: PaymentBook, tally: FaultTally, faults: [FaultKind: Int],
        started: ContinuousClock.Instant
    ) async throws -> SimulationReport {
        let store = try await stack.store
        let catalog = stack.configuration.catalog
        var charges: [Charge] = []
        var tokens: [String: String] = [:]
        var reversed = 0
        for transaction in await stack.emulator.ledger() {
            let payer: String? =
                if let token = transaction.appAccountToken { await book.payer(token: token) } else { nil }
            tokens[transaction.transactionId] = transaction.appAccountToken
            if transaction.refundState == .reversed { reversed += 1 }
            charges.append(
                Charge(
                    transactionId: transaction.transactionId, productId: transaction.productId,
                    quantity: transaction.quantity, payer: payer, refunded: transaction.isRevoked))
        }
        let ledger = try await store.deliveries(players: players + [Attacker.playerId])
        let verdict = IntegrityOracle { catalog.product($0)?.grants }.judge(charges: charges, ledger: ledger)
        var offenders: [SimulationReport.Offender] = []
        for violation in verdict.violations {
            var history = await book.history(
                token: tokens[violation.transactionId], transactionId: violation.transactionId)
            for event in try await store.events(transactionId: violation.transactionId) {
                let detail = event.detail.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                history.append(
                    "server: \(event.type.rawValue) \(event.playerId ?? "-") \(detail.joined(separator: " "))")
            }
            offenders.append(
                SimulationReport.Offender(
                    kind: violation.kind, transactionId: violation.transactionId, detail: violation.detail,
                    history: history))
        }
        return SimulationReport(
            counts: verdict.counts, reversed: reversed,
            faults: faults, seed: configuration.seed,
            elapsedSeconds: (ContinuousClock.now - started) / .seconds(1), purchases: configuration.purchases,
            players: configuration.players, outcomes: await tally.outcomes, offenders: offenders)
    }

    // MARK: Configuration

    private func serverConfiguration(playerSecret: String) -> ServerConfiguration {
        var server = DevStackConfiguration.development
        server.playerTokenSecret = playerSecret
        server.adminKey = Self.randomSecret()
        server.reconcilerIntervalSeconds = configuration.reconcilerIntervalSeconds
        // Every receipt is checked with Apple too, so verifyReceipt outages reach the
        // StoreKit 1 devices' reports.
        server.verifyReceipt.mode = .secondOpinion
        return server
    }

    /// The emulator's side of the faults: Apple's endpoints erroring and notifications
    /// dropped, duplicated, reordered and delayed.
    private var appleFaults: EmulatorFaults {
        let rates = configuration.faults
        return EmulatorFaults(
            seed: configuration.seed,
            endpoints: [
                "verifyReceipt": EndpointFaults(errorRate: rates[.verifyReceiptOutage]),
                "serverAPI": EndpointFaults(errorRate: rates[.serverAPIOutage]),
            ],
            notifications: notificationFaults)
    }

    private var notificationFaults: NotificationFaults {
        let rates = configuration.faults
        return NotificationFaults(
            dropRate: rates[.notificationDrop], duplicateRate: rates[.notificationDuplicate],
            reorderRate: rates[.notificationReorder], maxReorderDelay: .seconds(1),
            delayRate: rates[.notificationDelay], delay: .seconds(3), seed: configuration.seed)
    }

    /// The notification faults the emulator applied so far, recomputed from the seed for
    /// every notification issued and every attempt made.
    private func notificationFaultCounts(_ emulator: AppStoreEmulator) async -> [FaultKind: Int] {
        let faults = notificationFaults
        var counts: [FaultKind: Int] = [:]
        for notification in await emulator.notifications() {
            let uuid = notification.notificationUUID
            if faults.drops(uuid: uuid) { counts[.notificationDrop, default: 0] += 1 }
            for attempt in notification.attempts.indices {
                let injected = faults.attemptFaults(uuid: uuid, attemptNumber: attempt + 1)
                if injected.duplicate { counts[.notificationDuplicate, default: 0] += 1 }
                if injected.delayed {
                    counts[.notificationDelay, default: 0] += 1
                } else if injected.extraDelay > .zero {
                    counts[.notificationReorder, default: 0] += 1
                }
            }
        }
        return counts
    }

    private static func randomSecret() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() }
    }
}
