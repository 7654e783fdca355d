import ArgumentParser
import Foundation
import Logging
import PurchaseSDK
import PurchaseSDKEmulator
import PurchaseSDKStoreKit
import PurchaseServer
import StoreKeeperDev

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `storekeeper demo`: server, emulator and client SDK in one process, walking one purchase
/// through an app kill and a server outage.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk a purchase through a crash and a server outage; exit 0 if the goods arrived exactly once.",
        discussion: """
            Starts the purchase server and the App Store emulator on a temporary SQLite ledger, then \
            drives the client SDK: the app is killed after Apple charged, the server goes down, the \
            app starts again and the SDK delivers from its journal when the server is back.
            """
    )

    @Option(help: "The product to buy.")
    var product = "coins100"

    @Option(help: "The player who buys.")
    var player = "demo-player"

    @Option(help: "How long the server stays down, in seconds.")
    var outage: Double = 2

    @Option(
        help: """
            The phone's store client: emulator (the emulator's device API), storekit2 or \
            storekit1 (the SDK's StoreKit adapters over StoreKit for Linux, pointed at the \
            demo's emulator).
            """)
    var store: DemoStore = .emulator

    func validate() throws {
        try SecondsOption.check(outage, "--outage", allowsZero: true)
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storekeeper-demo-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var logger = Logger(label: "storekeeper-demo")
        logger.logLevel = .critical
        var server = DevStackConfiguration.development
        server.reconcilerIntervalSeconds = 0
        let stack = try await DevStack(
            DevStackConfiguration(
                databaseURL: "sqlite:\(directory.path)/ledger.sqlite",
                emulatorDirectory: directory.appendingPathComponent("emulator"), sendsNotifications: false,
                server: server, logger: logger))
        let delivered: Bool
        do {
            if store != .emulator {
                let data = directory.appendingPathComponent("storekit")
                try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
                setenv("STOREKEEPER_STOREKIT_URL", await stack.baseURL.absoluteString, 1)
                setenv("STOREKEEPER_STOREKIT_DEVICE", "demo-phone", 1)
                setenv("STOREKEEPER_STOREKIT_DATA", data.path, 1)
            }
            delivered = try await walk(stack: stack, journal: directory.appendingPathComponent("journal"))
        } catch {
            await stack.stop()
            throw error
        }
        await stack.stop()
        guard delivered else { throw ExitCode.rejected }
    }

    /// The walk; true when the ledger shows exactly one delivery of the transaction Apple charged.
    private func walk(stack: DevStack, journal: URL) async throws -> Bool {
        let base = await stack.baseURL
        let secret = stack.configuration.playerTokenSecret ?? ""
        say("1. server and App Store emulator on \(base), ledger on SQLite; \(player) signs in")

        let first = pipeline(base: base, journal: journal, secret: secret) { boundary, record in
            guard boundary == .beforeReport else { return }
            say(
                "3. Apple charged: transaction \(record.transactionId ?? "?") journaled for order \(record.orderId ?? "?")"
            )
            say("   ✗ the app is killed before it reports the purchase")
            throw SimulatedCrash(at: boundary)
        }
        try await first.start()
        say("2. \(player) buys \(product)")
        do {
            _ = try await first.purchase(productId: product)
            say("   the crash did not happen")
            return false
        } catch is SimulatedCrash {}

        say("4. the server goes down for \(outage) s")
        let restart = Task { try await stack.restart(downtime: .milliseconds(Int(outage * 1_000))) }
        try await waitUntilDown(base)

        say("5. the app starts again and resumes from its journal")
        let attempts = AttemptCounter()
        let second = pipeline(base: base, journal: journal, secret: secret) { boundary, record in
            guard boundary == .beforeServerCall else { return }
            let attempt = await attempts.next()
            say("   reporting transaction \(record.transactionId ?? "?") (attempt \(attempt))")
        }
        try await second.start()
        await second.waitUntilIdle()
        try await restart.value
        let records = await second.allRecords()
        await second.stop()
        for record in records {
            say("6. order \(record.orderId ?? "?"): \(record.state), server said \(record.delivery?.status ?? "-")")
        }
        return try await verify(stack: stack)
    }

    /// Waits until the server refuses new connections.
    private func waitUntilDown(_ base: URL) async throws {
        let probe = URLSessionTransport(session: URLSession(configuration: .ephemeral), timeout: 1)
        let health = NetworkRequest(method: "GET", url: base.appendingPathComponent("healthz"))
        while (try? await probe.send(health)) != nil {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func verify(stack: DevStack) async throws -> Bool {
        // StoreKit 1's finishTransaction returns before the App Store hears of it, as on a
        // device: give a finish under way a few seconds to land.
        var charges = await stack.emulator.ledger()
        let deadline = ContinuousClock.now + .seconds(5)
        while !charges.allSatisfy(\.finished), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            charges = await stack.emulator.ledger()
        }
        let purchases = try await stack.store.purchases(playerId: player)
        let wallet = try await stack.store.wallet(playerId: player)
        say("7. Apple charged \(charges.count) time(s); the ledger holds \(purchases.count) delivery(ies)")
        say(
            "   wallet of \(player): \(wallet.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))"
        )
        let exactlyOnce =
            charges.count == 1 && charges.allSatisfy(\.finished)
            && purchases.map(\.transactionId) == charges.map(\.transactionId)
        say(exactlyOnce ? "✓ delivered exactly once, transaction finished" : "✗ NOT delivered exactly once")
        return exactlyOnce
    }

    private func pipeline(
        base: URL, journal: URL, secret: String,
        hook: @escaping @Sendable (PipelineBoundary, PurchaseRecord) async throws -> Void
    ) -> PurchasePipeline {
        PurchasePipeline(
            configuration: PipelineConfiguration(
                store: storeClient(base: base),
                journal: FilePurchaseJournal(url: journal),
                server: PurchaseServerClient(baseURL: base, transport: URLSessionTransport(timeout: 5)),
                tokens: { playerId in PlayerTokenVerifier.issue(playerId: playerId, secret: secret) },
                retry: RetryPolicy(initialDelay: .milliseconds(250), maximumDelay: .seconds(1)),
                hooks: PipelineHooks(crashPoint: hook)),
            playerId: player)
    }
}

extension DemoCommand {
    /// The phone's store client.
    enum DemoStore: String, CaseIterable, ExpressibleByArgument, Sendable {
        case emulator, storekit2, storekit1
    }

    private func storeClient(base: URL) -> any StoreClient {
        switch store {
        case .emulator: EmulatorStoreClient(baseURL: base, deviceId: "demo-phone", pollInterval: .milliseconds(200))
        case .storekit2: StoreKitAPI.storeClient(.storeKit2)
        case .storekit1: StoreKitAPI.storeClient(.storeKit1)
        }
    }
}

/// Counts report attempts across the hook's calls.
private actor AttemptCounter {
    private var count = 0

    func next() -> Int {
        count += 1
        return count
    }
}

/// Prints a step of the walk.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
