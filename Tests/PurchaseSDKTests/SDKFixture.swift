import AppStoreEmulator
import EmulatorTestSupport
import Foundation
import Hummingbird
import Ledger
import LedgerTestSupport
import Logging
import PurchaseSDK
import PurchaseSDKEmulator
import PurchaseSDKStoreKit
import PurchaseServer
import StoreKeeperDev

/// A DevStack (purchase server and emulator on one port, SQLite ledger) and a journal
/// directory: pipelines built by ``pipeline(player:device:behaviour:crashAt:retention:timeout:clock:hook:shape:adapter:serverTransport:)`` share
/// the journal file and the emulator, as an app does across launches.
final class SDKFixture: Sendable {
    static let playerSecret = "sdk-test-player-secret"

    let database: TestDatabase
    let stack: DevStack
    let directory: URL
    let faults = FaultPlan()

    init(notifications: Bool = false) async throws {
        database = try await StoreKind.sqlite.makeDatabase()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-\(UUID().uuidString.prefix(8))")
        try TestEmulatorDirectory.provide(directory.appendingPathComponent("emulator"))
        var logger = Logger(label: "sdk-test")
        logger.logLevel = .critical
        var configuration = DevStackConfiguration.development
        configuration.playerTokenSecret = Self.playerSecret
        configuration.reconcilerIntervalSeconds = 0
        stack = try await DevStack(
            DevStackConfiguration(
                databaseURL: database.url, emulatorDirectory: directory.appendingPathComponent("emulator"),
                sendsNotifications: notifications, notificationTimeScale: 0.00001, server: configuration,
                extraRoutes: FaultRoutes.add, appleTimeoutSeconds: 20, logger: logger))
    }

    /// The journal file of `device`.
    func journalURL(device: String = "phone") -> URL {
        directory.appendingPathComponent("\(device)/journal")
    }

    /// A new pipeline on `device`'s journal file (and the entitlement cache beside it) and
    /// emulated phone, as after a launch; `crashAt` kills it at the first pass of that
    /// boundary; `shape` wraps the phone's store (``ShapedStore``); `adapter` chooses the
    /// store client: the emulator's, or a StoreKit adapter over StoreKit for Linux pointed
    /// at the stack's emulator through the process's STOREKEEPER_STOREKIT_* variables (its
    /// tests must run serialized). The returned `EmulatorStoreClient` talks to the same
    /// phone either way. `serverTransport` wraps the transport to the purchase server;
    /// `retry` is the backoff (short waits by default).
    func pipeline(
        player: String?, device: String = "phone", behaviour: EmulatorStoreClient.StoreKitBehaviour = .storeKit2,
        crashAt boundary: PipelineBoundary? = nil, retention: JournalRetention = .standard, timeout: TimeInterval = 5,
        clock: any PipelineClock = SystemPipelineClock(),
        hook: @escaping @Sendable (PipelineBoundary, PurchaseRecord) async throws -> Void = { _, _ in },
        shape: (EmulatorStoreClient) -> any StoreClient = { $0 }, adapter: StoreAdapter = .emulator,
        serverTransport: (any NetworkTransport) -> any NetworkTransport = { $0 },
        retry: RetryPolicy = RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
    ) async -> (PurchasePipeline, EmulatorStoreClient) {
        let base = await stack.baseURL
        let emulatorClient = EmulatorStoreClient(
            baseURL: base, deviceId: device, behaviour: behaviour, pollInterval: .milliseconds(50),
            transport: FaultyTransport(base: URLSessionTransport(), plan: faults))
        let store: any StoreClient
        switch adapter {
        case .emulator: store = shape(emulatorClient)
        case .storeKit2, .storeKit1:
            let data = directory.appendingPathComponent("\(device)/storekit")
            try? FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            setenv("STOREKEEPER_STOREKIT_URL", base.absoluteString, 1)
            setenv("STOREKEEPER_STOREKIT_DEVICE", device, 1)
            setenv("STOREKEEPER_STOREKIT_DATA", data.path, 1)
            store = StoreKitAPI.storeClient(adapter == .storeKit1 ? .storeKit1 : .storeKit2)
        }
        let transport = FaultyTransport(base: URLSessionTransport(timeout: timeout), plan: faults)
        let configuration = PipelineConfiguration(
            store: store,
            journal: FilePurchaseJournal(url: journalURL(device: device), retention: retention),
            server: PurchaseServerClient(baseURL: base, transport: serverTransport(transport)),
            tokens: { playerId in PlayerTokenVerifier.issue(playerId: playerId, secret: Self.playerSecret) },
            clock: clock,
            retry: retry,
            random: { 1 },
            hooks: PipelineHooks { passed, record in
                try await hook(passed, record)
                if passed == boundary { throw SimulatedCrash(at: passed) }
            },
            entitlementCache: FileEntitlementCache(besideJournalAt: journalURL(device: device)))
        return (PurchasePipeline(configuration: configuration, playerId: player), emulatorClient)
    }

    /// The purchases the server's ledger holds for `player`.
    func purchases(_ player: String) async throws -> [Purchase] {
        try await stack.store.purchases(playerId: player)
    }

    /// The player's wallet.
    func wallet(_ player: String) async throws -> [String: Int64] {
        try await stack.store.wallet(playerId: player)
    }

    /// The emulator's charges on `device`.
    func charges(device: String = "phone") async -> [EmulatedTransaction] {
        await stack.emulator.ledger().filter { $0.deviceId == device }
    }

    /// Waits until `condition` holds, at most 20 s.
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw FixtureError("timed out waiting for \(what)")
    }

    /// Stops everything and removes the files.
    func shutdown() async {
        await stack.stop()
        database.remove()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a fresh fixture and shuts it down.
func withFixture(
    notifications: Bool = false, _ body: (SDKFixture) async throws -> Void
) async throws {
    let fixture = try await SDKFixture(notifications: notifications)
    do {
        try await body(fixture)
        await fixture.shutdown()
    } catch {
        await fixture.shutdown()
        throw error
    }
}

/// The store client a fixture's pipeline uses.
enum StoreAdapter: String, CaseIterable, Sendable {
    /// `EmulatorStoreClient`, the emulator's device API directly.
    case emulator
    /// `StoreKitStoreClient` over StoreKit 2 for Linux.
    case storeKit2
    /// `StoreKit1StoreClient` over StoreKit 1 for Linux (`SKPaymentQueue`).
    case storeKit1
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
