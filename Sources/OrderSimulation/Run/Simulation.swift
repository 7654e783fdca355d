import AppStoreEmulator
import AsyncHTTPClient
import Crypto
import Foundation
import Ledger
import Logging
import PlayEmulator
import PurchaseServer
import StoreKeeperDev

/// The order-integrity simulation: the App Store emulator, the purchase server and one SDK
/// pipeline per simulated device in one process, with every fault of ``FaultRates`` on
/// (kills, reinstalls, network faults, server restarts, Apple outages, notification faults,
/// refunds, account switches, promoted purchases, Ask to Buy, a malicious device), and
/// subscription players (``SubscriptionHousehold``) whose subscriptions Apple renews, fails
/// to renew, upgrades, refunds, shares and restores.
///
/// When every purchase has been made the run quiesces — faults off, killed apps relaunched,
/// retries done, notifications delivered, the reconciler run — and ``IntegrityOracle``
/// compares the emulator's charges with the server's ledger, ``EntitlementOracle`` Apple's
/// paid periods and subscription statuses with the server's entitlements.
///
/// Every fault decision comes from the seed (each device rolls its own plan); the
/// interleaving of concurrent devices and the server's timing do not, so two runs of one
/// seed inject the same planned faults and nearly the same per-request ones. A serial run
/// (``SimulationConfiguration/serial``) fixes the devices' interleaving too.
///
/// A purchase something still works on when the run is judged (an unfinished transaction,
/// a journal mid-way, a notification with attempts left, a failed reconciler pass) is
/// waited for, and if it is still in flight after
/// ``SimulationConfiguration/extraQuiesceRounds`` it is reported as such
/// (``SimulationReport/inFlight``), never as lost. When anything offends or stays in flight,
/// the run writes every such purchase's full history (``SimulationHistory``) to a file.
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

    /// How long a subscription's month lasts in a run: each subscription player's step is
    /// one period, its renewal (or billing failure, or expiry) made by the emulator's renewal
    /// clock at the period's end, as Apple's would.
    static let subscriptionPeriod = Duration.seconds(1)

    /// The emulator's subscription time scale that makes a 30-day month last
    /// ``subscriptionPeriod``.
    static let subscriptionTimeScale = 1.0 / (30 * 86_400)

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
        let acknowledgementFaults = PlayAcknowledgementFaults(rates: configuration.faults, seed: configuration.seed)
        let playClock = SimulationPlayClock()
        let stack = try await DevStack(
            DevStackConfiguration(
                databaseURL: configuration.databaseURL ?? "sqlite:\(directory.path)/ledger.sqlite",
                emulatorDirectory: directory.appendingPathComponent("emulator"), notificationTimeScale: 0.000_01,
                subscriptionTimeScale: Self.subscriptionTimeScale,
                server: serverConfiguration(playerSecret: playerSecret),
                interceptor: { acknowledgementFaults.answer($0) }, instances: configuration.instances,
                playClock: { playClock.now }, logger: logger))
        do {
            let report = try await run(
                on: stack, acknowledgementFaults: acknowledgementFaults, playClock: playClock, directory: directory,
                playerSecret: playerSecret, started: started)
            await stack.stop()
            return report
        } catch {
            await stack.stop()
            throw error
        }
    }

    private func run(
        on stack: DevStack, acknowledgementFaults: PlayAcknowledgementFaults, playClock: SimulationPlayClock,
        directory: URL, playerSecret: String, started: ContinuousClock.Instant
    ) async throws -> SimulationReport {
        let phones = PhoneConnections()
        let http = DeviceHTTPTransport.makeClient(connections: 8)
        do {
            let report = try await run(
                on: stack, acknowledgementFaults: acknowledgementFaults, playClock: playClock, phones: phones,
                http: http,
                appStore: configuration.phoneStore == .storeKit ? stack.emulatorURL : nil,
                playStore: configuration.androidPlayers > 0 ? stack.emulatorURL : nil, directory: directory,
                playerSecret: playerSecret, started: started)
            await phones.shutdown()
            try? await http.shutdown()
            return report
        } catch {
            await phones.shutdown()
            try? await http.shutdown()
            throw error
        }
    }

    private func run(
        on stack: DevStack, acknowledgementFaults: PlayAcknowledgementFaults, playClock: SimulationPlayClock,
        phones: PhoneConnections,
        http: HTTPClient, appStore: URL?, playStore: URL?,
        directory: URL, playerSecret: String, started: ContinuousClock.Instant
    ) async throws -> SimulationReport {
        let emulator = stack.emulator
        let rates = configuration.faults
        await emulator.setFaults(appleFaults)
        let tally = FaultTally()
        let book = PaymentBook()
        let timeline = JournalTimeline(started: started)
        let serverURL = await stack.baseURL
        var serverURLs: [URL] = []
        for instance in 0..<stack.instanceCount { serverURLs.append(await stack.baseURL(instance: instance)) }
        let chaos = ServerChaos(stack: stack, tally: tally)
        let reconciler = ReconcilerDriver(stack: stack, chaos: chaos, started: started)
        let world = SimulationWorld(
            emulator: emulator, serverURLs: serverURLs, phones: phones, playerSecret: playerSecret,
            directory: directory.appendingPathComponent("devices"), rates: rates, seed: configuration.seed,
            serial: configuration.serial, book: book, tally: tally, timeline: timeline,
            chaos: chaos,
            attacker: try Attacker(
                baseURL: serverURL, transport: DeviceHTTPTransport(client: http), playerSecret: playerSecret,
                bundleId: emulator.configuration.bundleId, book: book,
                tally: tally),
            products: ["coins100", "coins500", "potion"], appStore: appStore, playStore: playStore)
        let devices = makeDevices(world)
        let shares = Self.shares(of: configuration.purchases, among: devices.count)
        let subscriptions = SubscriptionLog()
        let households = (0..<configuration.subscriptionPlayers).map {
            SubscriptionHousehold(index: $0, world: world, log: subscriptions, period: Self.subscriptionPeriod)
        }
        let steps = configuration.subscriptionSteps
        var phases = SimulationPhases()
        var phaseStart = ContinuousClock.now

        if configuration.serial {
            await takeTurns(devices, shares: shares, reconciler: reconciler)
            for household in households { await household.live(steps: steps) }
        } else {
            let periodic =
                configuration.reconcilerIntervalSeconds > 0
                ? reconciler.periodically(every: .seconds(configuration.reconcilerIntervalSeconds)) : nil
            await withTaskGroup(of: Void.self) { group in
                for (device, share) in zip(devices, shares) {
                    group.addTask { await device.run(purchases: share) }
                }
                for household in households {
                    group.addTask { await household.live(steps: steps) }
                }
            }
            periodic?.cancel()
            await periodic?.value
        }

        // Quiesce: the faults end, every app finishes its work, Apple's notifications are
        // delivered and the reconciler reads Apple's history.
        await world.chaos.settle()
        let notificationFaults = await notificationFaultCounts(emulator)
        let appleFaults = await emulator.injectedFaults
        await emulator.setFaults(EmulatorFaults())
        acknowledgementFaults.calmDown()
        phases.purchasing = SimulationPhases.seconds(since: phaseStart)
        phaseStart = .now
        try await quiesce(devices, households, for: .seconds(120))
        phases.settlingApps = SimulationPhases.seconds(since: phaseStart)
        phaseStart = .now
        await emulator.waitForNotificationDeliveries()
        phases.deliveringNotifications = SimulationPhases.seconds(since: phaseStart)
        phaseStart = .now
        await reconciler.settle("quiesce")
        try await endThreeDays(emulator, clock: playClock, reconciler: reconciler)
        phases.reconciling = SimulationPhases.seconds(since: phaseStart)
        phaseStart = .now
        try await quiesce(devices, households, for: .seconds(30))
        phases.settlingApps += SimulationPhases.seconds(since: phaseStart)
        phaseStart = .now

        var subscriberPhones: [SubscriberPhone] = []
        var subscriberPlayers: [String] = []
        for household in households {
            subscriberPhones += household.phones
            subscriberPlayers += household.players
        }
        let judge = Judge(
            stack: stack, devices: devices, book: book, timeline: timeline, reconciler: reconciler,
            notificationFaults: self.notificationFaults, subscriberPhones: subscriberPhones,
            subscriberPlayers: subscriberPlayers, subscriptions: subscriptions)
        var (verdict, offenders) = try await judge.verdict()
        var (entitlements, lag) = try await judge.entitlements()
        let firstInFlight = verdict.inFlight
        // A purchase still in flight is waited for, a round at a time, never counted as lost;
        // so is an entitlement the ledger has not caught up with (its lag is measured).
        var rounds = 0
        while (!verdict.isConclusive || !entitlements.holds) && rounds < configuration.extraQuiesceRounds {
            rounds += 1
            try await quiesce(devices, households, for: .seconds(60))
            await emulator.waitForNotificationDeliveries()
            await reconciler.settle("quiesce round \(rounds + 1)")
            try await quiesce(devices, households, for: .seconds(30))
            (verdict, offenders) = try await judge.verdict()
            (entitlements, lag) = try await judge.entitlements()
        }
        phases.judging = SimulationPhases.seconds(since: phaseStart)
        var figures = await subscriptions.figures
        figures.players = households.count
        figures.verdict = entitlements
        figures.lag = lag
        (figures.renewals, figures.renewalNotificationsDropped) = await judge.renewals()

        var faults = await tally.counts.merging(notificationFaults, uniquingKeysWith: +)
        faults[.verifyReceiptOutage] = appleFaults["verifyReceipt", default: 0]
        faults[.serverAPIOutage] = appleFaults.filter { $0.key != "verifyReceipt" }.values.reduce(0, +)
        faults[.playAcknowledgementFailure] = acknowledgementFaults.injected
        faults = faults.filter { $0.value > 0 }
        let sequence = await tally.outcomeSequence
        let restarts = await world.chaos.restarts
        var report = SimulationReport(
            counts: verdict.counts, reversed: await emulator.ledger().count { $0.refundState == .reversed },
            faults: faults, seed: configuration.seed,
            elapsedSeconds: (ContinuousClock.now - started) / .seconds(1), purchases: configuration.purchases,
            players: configuration.players, outcomes: await tally.outcomes, offenders: offenders,
            inFlight: verdict.inFlight, serial: configuration.serial, extraQuiesceRounds: rounds,
            outcomeDigest: Self.digest(sequence), instances: stack.instanceCount,
            restartsByInstance: (0..<stack.instanceCount).map { restarts[$0, default: 0] })
        report.phaseSeconds = phases
        report.phoneStore = configuration.phoneStore
        let stillInFlight = Set(verdict.inFlight.map { $0.transactionId ?? $0.appAccountToken ?? "" })
        report.subscriptions = figures
        report.android = try await androidFigures(emulator, tally: tally, counts: verdict.counts)
        report.resolvedInFlight = firstInFlight.filter {
            !stillInFlight.contains($0.transactionId ?? $0.appAccountToken ?? "")
        }
        if configuration.historyDirectory != nil || !report.holds || !verdict.isConclusive || rounds > 0 {
            let history = SimulationHistory(
                seed: configuration.seed, serial: configuration.serial, players: configuration.players,
                purchases: configuration.purchases,
                faults: Dictionary(uniqueKeysWithValues: faults.map { ($0.key.rawValue, $0.value) }),
                outcomeSequence: sequence, reconcilerPasses: await reconciler.passes,
                offenders: try await judge.histories(of: verdict, resolved: report.resolvedInFlight),
                entitlementViolations: entitlements.violations)
            report.historyFile = try write(history).path
        }
        for device in devices { await device.shutDown() }
        for phone in subscriberPhones { await phone.shutDown() }
        return report
    }

    /// Moves the Play side's clock past Google's three days of every paid purchase still not
    /// acknowledged once the server had its every chance (the faults over, the apps idle,
    /// the reconciler run): Google then refunds it, and the oracle sees the refund. A purchase
    /// acknowledged is never refunded for want of acknowledgement, so a run whose purchases
    /// are all acknowledged by now has nothing to move past. Google's refunds are then pushed
    /// to the server and the reconciler run, so that the server takes the goods back.
    private func endThreeDays(
        _ emulator: AppStoreEmulator, clock: SimulationPlayClock, reconciler: ReconcilerDriver
    ) async throws {
        let play = emulator.play
        let deadlines = try play.ledger().filter { !$0.acknowledged && !$0.refunded }.compactMap {
            $0.paidTime?.addingTimeInterval(play.acknowledgementWindow)
        }
        guard let last = deadlines.max() else { return }
        clock.advance(by: max(last.timeIntervalSince(clock.now), 0) + 0.001)
        // Reading the state applies the rule; its notifications go with the next send.
        _ = try play.ledger()
        await play.sendPendingNotifications()
        await emulator.waitForNotificationDeliveries()
        await reconciler.settle("after Google's three days")
    }

    /// What the Android players did on Google Play.
    private func androidFigures(
        _ emulator: AppStoreEmulator, tally: FaultTally, counts: IntegrityCounts
    ) async throws -> AndroidFigures {
        let purchases = try emulator.play.ledger()
        let threeDay = try emulator.play.threeDayRefunds()
        return AndroidFigures(
            players: configuration.androidPlayers, charged: purchases.count(where: \.paid),
            pending: await tally.counts[.playPending, default: 0],
            pendingCancelled: purchases.count { !$0.paid && !$0.pending },
            voided: purchases.count { $0.refunded && !threeDay.contains($0.orderId) },
            refundedUnacknowledged: counts.refundedUnacknowledged)
    }

    /// A serial run: one purchase at a time, the devices' turns in an order drawn from the
    /// seed, a reconciler pass every ``SimulationConfiguration/serialReconcilerEvery`` purchases.
    private func takeTurns(_ devices: [any GamePhone], shares: [Int], reconciler: ReconcilerDriver) async {
        for device in devices { await device.start() }
        var turns = zip(devices.indices, shares).flatMap { Array(repeating: $0, count: $1) }
        var generator = SplitMix64(seed: configuration.seed ^ 0x5E71_A100_7075_0000)
        turns.shuffle(using: &generator)
        for (made, index) in turns.enumerated() {
            await devices[index].purchaseNext()
            let count = made + 1
            if configuration.reconcilerIntervalSeconds > 0 && count % SimulationConfiguration.serialReconcilerEvery == 0
            {
                await reconciler.pass("after purchase \(count)")
            }
        }
    }

    /// The phones: the Apple players' devices, one per player except every fifth, which two
    /// players share, and every fourth speaking StoreKit 1 (receipts) instead of StoreKit 2;
    /// then one Android phone per Android player (the last
    /// ``SimulationConfiguration/androidPlayers``).
    private func makeDevices(_ world: SimulationWorld) -> [any GamePhone] {
        var devices: [any GamePhone] = []
        var player = 0
        let applePlayers = configuration.players - configuration.androidPlayers
        while player < applePlayers {
            let index = devices.count
            let shared = index % 5 == 4 && player + 1 < applePlayers
            let players = (player..<(player + (shared ? 2 : 1))).map { "player-\($0)" }
            devices.append(
                SimulatedDevice(
                    index: index, players: players, generation: index % 4 == 3 ? .storeKit1 : .storeKit2, world: world))
            player += players.count
        }
        for (index, player) in (applePlayers..<configuration.players).enumerated() {
            devices.append(AndroidPhone(index: index, player: "player-\(player)", world: world))
        }
        return devices
    }

    private static func shares(of purchases: Int, among devices: Int) -> [Int] {
        (0..<devices).map { purchases / devices + ($0 < purchases % devices ? 1 : 0) }
    }

    private func quiesce(
        _ devices: [any GamePhone], _ households: [SubscriptionHousehold], for duration: Duration
    ) async throws {
        let deadline = ContinuousClock.now + duration
        await withTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask { await device.quiesce(deadline: deadline) }
            }
            for household in households {
                group.addTask { await household.quiesce(deadline: deadline) }
            }
        }
    }

    /// The first 16 hex digits of the SHA-256 of the outcome sequence, one per line: equal
    /// for two runs whose purchase calls ended the same way in the same order.
    private static func digest(_ sequence: [String]) -> String {
        SHA256.hash(data: Data(sequence.joined(separator: "\n").utf8)).prefix(8).map {
            String(format: "%02x", $0)
        }.joined()
    }

    /// Writes the history to `simulation-SEED-offenders.json` in the history directory (the
    /// current directory by default).
    private func write(_ history: SimulationHistory) throws -> URL {
        let directory =
            configuration.historyDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("simulation-\(configuration.seed)-offenders.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(history).write(to: file, options: .atomic)
        return file
    }

    // MARK: Configuration

    private func serverConfiguration(playerSecret: String) -> ServerConfiguration {
        var server = DevStackConfiguration.development
        server.playerTokenSecret = playerSecret
        server.adminKey = Self.randomSecret()
        // The simulation runs the reconciler itself (``ReconcilerDriver``), to keep each pass.
        server.reconcilerIntervalSeconds = 0
        // The emulator puts a notification in its history as it issues it, and the run's
        // notification faults delay one by 3 s at most: a minute of Apple's history read
        // again covers them, where a server's hour would have every pass of a run (each
        // reconcilerIntervalSeconds, 10 s by default) read the whole run again.
        server.reconcilerOverlapSeconds = 60
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
