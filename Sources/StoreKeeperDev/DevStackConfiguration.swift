import AppStoreAPI
import AppStoreEmulator
import Foundation
import HTTPRouting
import Hummingbird
import Logging
import PurchaseServer

/// How to set up a ``DevStack``.
public struct DevStackConfiguration: Sendable {
    /// The loopback port; 0 picks a free one (kept across restarts).
    public var port: Int
    /// The ledger URL (`sqlite:PATH`, `sqlite::memory:`, `postgres://…`).
    public var databaseURL: String
    /// Where the emulator keeps its CA, API key and state.
    public var emulatorDirectory: URL
    /// Whether the emulator posts notifications to the server (they stay in its history
    /// either way, for the reconciler).
    public var sendsNotifications: Bool
    /// Multiplies Apple's notification retry schedule.
    public var notificationTimeScale: Double
    /// Multiplies subscription periods in the emulator; `nil` takes
    /// `STOREKEEPER_SUBSCRIPTION_TIME_SCALE` from the environment, or 1/8640 (a 30-day month
    /// lasts 5 minutes, like Apple's sandbox).
    public var subscriptionTimeScale: Double?
    /// The server configuration before the stack wires it to the emulator (bundle id,
    /// Apple endpoints and key); secrets default to `dev-player-secret` and `dev-admin-key`
    /// when nil. ``development`` by default.
    public var server: ServerConfiguration
    /// Extra routes on instance 0's port and on the emulator's (a test's stand-in webhook,
    /// which the server reaches at `http://apple.dev/…`, say).
    public var extraRoutes: @Sendable (Router<StoreKeeperRequestContext>) -> Void
    /// Whether the server's background jobs (reconciler, webhook outbox) run on their
    /// schedules; tests that drive them by hand turn them off.
    public var runsBackgroundServices: Bool
    /// Whether SIGTERM and SIGINT stop the stack gracefully (the CLI), or only ``DevStack/stop()`` does.
    public var handlesSignals: Bool
    /// How long the server waits for an answer from "Apple" (the emulator) before it
    /// answers `apple_unavailable`: short, as a game's server would set it; tests on a
    /// saturated machine give it longer.
    public var appleTimeoutSeconds: TimeInterval
    /// Sees every request the server sends to "Apple" or "Google" (the emulator) first: it
    /// answers one itself (a test's fault) or returns `nil` to let it through.
    public var interceptor: (@Sendable (HTTPRequestData) async throws -> HTTPResponseData?)?
    /// How many server instances run on the database (PostgreSQL for more than one):
    /// instance 0 on ``port`` beside the emulator, the others on free ports of their own.
    public var instances: Int
    /// The emulator's Google Play clock (``EmulatorConfiguration/playClock``): the real
    /// clock by default; a test passes one it moves to carry the Play side's purchases,
    /// subscription periods and three-day rule through days in no time. The server keeps
    /// real time.
    public var playClock: @Sendable () -> Date
    /// Where to log.
    public var logger: Logger

    /// Creates a configuration.
    public init(
        port: Int = 0,
        databaseURL: String,
        emulatorDirectory: URL,
        sendsNotifications: Bool = true,
        notificationTimeScale: Double = 0.001,
        subscriptionTimeScale: Double? = nil,
        server: ServerConfiguration = Self.development,
        extraRoutes: @escaping @Sendable (Router<StoreKeeperRequestContext>) -> Void = { _ in },
        runsBackgroundServices: Bool = true,
        handlesSignals: Bool = false,
        appleTimeoutSeconds: TimeInterval = 3,
        interceptor: (@Sendable (HTTPRequestData) async throws -> HTTPResponseData?)? = nil,
        instances: Int = 1,
        playClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "storekeeper")
    ) {
        self.port = port
        self.databaseURL = databaseURL
        self.emulatorDirectory = emulatorDirectory
        self.sendsNotifications = sendsNotifications
        self.notificationTimeScale = notificationTimeScale
        self.subscriptionTimeScale = subscriptionTimeScale
        self.server = server
        self.extraRoutes = extraRoutes
        self.runsBackgroundServices = runsBackgroundServices
        self.handlesSignals = handlesSignals
        self.appleTimeoutSeconds = appleTimeoutSeconds
        self.interceptor = interceptor
        self.instances = instances
        self.playClock = playClock
        self.logger = logger
    }

    /// The development subscription time scale: a 30-day month lasts 5 minutes.
    public static let developmentSubscriptionTimeScale = 1.0 / 8_640

    /// The subscription time scale to run with: ``subscriptionTimeScale``, else
    /// `STOREKEEPER_SUBSCRIPTION_TIME_SCALE` from `environment`, else
    /// ``developmentSubscriptionTimeScale``.
    ///
    /// - Throws: ``DevStackError`` when the variable is not a finite positive number.
    public func resolvedSubscriptionTimeScale(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Double {
        if let subscriptionTimeScale { return subscriptionTimeScale }
        guard let text = environment["STOREKEEPER_SUBSCRIPTION_TIME_SCALE"] else {
            return Self.developmentSubscriptionTimeScale
        }
        guard let scale = Double(text), scale.isFinite, scale > 0 else {
            throw DevStackError(
                "STOREKEEPER_SUBSCRIPTION_TIME_SCALE must be a finite positive number (1/8640 is 0.00011574), "
                    + "not \"\(text)\"")
        }
        return scale
    }

    /// A sandbox deployment that accepts sandbox, production and Xcode purchases, answers
    /// consumption requests, reconciles every minute, and lists a transaction in the
    /// console's owed queue as soon as the server learns of it (no wait for the app's report).
    public static let development = ServerConfiguration(
        deploymentEnvironment: .sandbox,
        allowedEnvironments: [.sandbox, .production, .xcode],
        answerConsumptionRequests: true,
        reconcilerIntervalSeconds: 60,
        console: ConsoleSettings(owedAfterSeconds: 0)
    )
}
