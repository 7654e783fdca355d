import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AppStoreVerification
import AsyncHTTPClient
import Foundation
import HTTPRouting
import Hummingbird
import Ledger
import Logging
import PlayEmulator
import PlayModel
import PurchaseServer
import ServiceLifecycle
import SupportConsole

/// A purchase server and an in-process App Store emulator on one loopback port: what
/// `storekeeper serve --dev`, `demo` and the end-to-end tests run.
///
/// With ``DevStackConfiguration/instances`` above 1, more server instances run on ports of
/// their own, on the same database and the same emulator, as several processes of one
/// deployment would: instance 0 shares its port with the emulator and receives Apple's
/// notifications; each instance runs its own background jobs.
///
/// The server reaches "Apple" (verifyReceipt, the Server API) at `http://apple.dev/…` and
/// "Google" (the token endpoint, the Play Developer API, the push keys) at
/// `http://play.dev/…`, which the stack's transport sends to the emulator on a loopback port
/// of its own (``emulatorURL``) that stays up while server instances restart, as Apple and
/// Google do; the emulator posts notifications (Apple's, and Google Play's Pub/Sub pushes) to the
/// server's intake. The server trusts the emulator's roots besides
/// Apple's: never build one outside development and tests.
public final class DevStack: Sendable {
    /// The emulated App Store.
    public let emulator: AppStoreEmulator
    /// The server configuration as wired to the emulator.
    public let configuration: ServerConfiguration
    private let settings: DevStackConfiguration
    private let state = DevStackState()
    /// The emulator on a port of its own, which the server's calls to "Apple" and "Google
    /// Play" reach and which stays up while server instances restart.
    private let emulatorListener: EmulatorListener
    /// The server's connections to "Apple" (``emulatorListener``): a connect timeout of 5 s
    /// (a loaded machine may take over a second to complete a connect, which a 1 s timeout
    /// read as Apple unavailable) and a read timeout of
    /// ``DevStackConfiguration/appleTimeoutSeconds``. It keeps an idle connection for the
    /// server's ``LoadSettings/clientIdleTimeout``, and up to ``emulatorConnections`` at once.
    private let appleClient: HTTPClient
    /// How many connections the server's calls to the emulator may use at once.
    /// AsyncHTTPClient's default, 8, bounds HTTP/1.1 connections to a host; Apple's and
    /// Google's servers speak HTTP/2, where a connection carries many requests at once, but
    /// the emulator speaks HTTP/1.1 on one port, where every call of the server (each report's
    /// second opinion, Google's lookups and acknowledgements, the reconciler's pages) waited
    /// its turn behind eight.
    static let emulatorConnections = 64
    /// The emulator's connections to the server's notification intakes (Apple's and Google
    /// Play's): an idle one is kept only for the server's ``LoadSettings/clientIdleTimeout``
    /// (``HTTPNotificationTransport/configuration(keepingIdleConnectionsFor:)``).
    private let notificationClient: HTTPClient

    /// Starts the emulator and the server.
    public init(_ settings: DevStackConfiguration) async throws {
        self.settings = settings
        appleClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                timeout: .init(connect: .seconds(5), read: .milliseconds(Int64(settings.appleTimeoutSeconds * 1000))),
                connectionPool: .init(
                    idleTimeout: settings.server.load.clientIdleTimeout,
                    concurrentHTTP1ConnectionsPerHostSoftLimit: Self.emulatorConnections)))
        notificationClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPNotificationTransport.configuration(
                keepingIdleConnectionsFor: settings.server.load.clientIdleTimeout))
        let emulator: AppStoreEmulator
        do {
            emulator = try await AppStoreEmulator(
                configuration: EmulatorConfiguration(
                    dataDirectory: settings.emulatorDirectory, timeScale: settings.notificationTimeScale,
                    subscriptionTimeScale: try settings.resolvedSubscriptionTimeScale(), playClock: settings.playClock),
                httpClient: notificationClient)
        } catch {
            // A client dropped while running fails a debug build's precondition.
            try? await appleClient.shutdown()
            try? await notificationClient.shutdown()
            throw error
        }
        do {
            emulatorListener = try await EmulatorListener(
                emulator: emulator, extraRoutes: settings.extraRoutes, logger: settings.logger)
        } catch {
            await emulator.shutdown()
            try? await appleClient.shutdown()
            try? await notificationClient.shutdown()
            throw error
        }
        self.emulator = emulator
        configuration = Self.wire(settings.server, to: emulator)
        await state.setPort(settings.port, instance: 0)
        do {
            for instance in 0..<max(settings.instances, 1) { try await start(instance: instance) }
        } catch {
            await stop()
            throw error
        }
    }

    /// How many server instances run.
    public var instanceCount: Int { max(settings.instances, 1) }

    /// The running server (instance 0).
    public var server: PurchaseServer {
        get async throws { try await state.current(instance: 0).server }
    }

    /// The server's ledger (instance 0's connection to the shared database).
    public var store: any LedgerStore {
        get async throws { try await state.current(instance: 0).store }
    }

    /// Where the emulator alone answers, on a port of its own that stays up while server
    /// instances restart (as Apple and Google do while a game's backend is down): the App
    /// Store and Google Play that simulated phones talk to.
    public var emulatorURL: URL { emulatorListener.url }

    /// Where the server and the emulator answer (instance 0).
    public var baseURL: URL {
        get async { await baseURL(instance: 0) }
    }

    /// Where server instance `instance` answers (the emulator too, for instance 0).
    public func baseURL(instance: Int) async -> URL {
        URL(string: "http://127.0.0.1:\(await state.port(instance: instance))")!
    }

    /// Tears server instance `instance` down and builds a new one on the same database,
    /// emulator and port, as a process restart would.
    public func restart(instance: Int = 0, downtime: Duration = .zero) async throws {
        try await restart(instance: instance) { try await Task.sleep(for: downtime) }
    }

    /// Tears server instance `instance` down, runs `whileDown` (the outage: a test waits
    /// there for what must happen while the server is down), then builds a new one on the
    /// same database, emulator and port.
    public func restart(instance: Int = 0, whileDown: @Sendable () async throws -> Void) async throws {
        try await stopServer(instance: instance)
        try await whileDown()
        try await start(instance: instance)
    }

    /// Stops every server instance and the emulator.
    public func stop() async {
        for instance in (0..<instanceCount).reversed() { try? await stopServer(instance: instance) }
        await emulatorListener.stop()
        await emulator.shutdown()
        try? await appleClient.shutdown()
        try? await notificationClient.shutdown()
    }

    /// Waits until the server stops (by a signal, with ``DevStackConfiguration/handlesSignals``).
    public func waitUntilStopped() async throws {
        guard let running = try? await state.current(instance: 0) else { return }
        try await running.task.value
        await stop()
    }

    /// The configuration with the emulator as Apple: its bundle id and app Apple id,
    /// verifyReceipt (as fallback unless the base asks for a second opinion), its Server API
    /// key, its OCSP responder for the revocation check (when turned on) unless another is
    /// given, and dev secrets unless given.
    private static func wire(_ base: ServerConfiguration, to emulator: AppStoreEmulator) -> ServerConfiguration {
        var configuration = base
        configuration.bundleId = emulator.configuration.bundleId
        configuration.appAppleId = emulator.configuration.appAppleId
        configuration.playerTokenSecret = configuration.playerTokenSecret ?? "dev-player-secret"
        configuration.adminKey = configuration.adminKey ?? "dev-admin-key"
        configuration.verifyReceipt = VerifyReceiptSettings(
            mode: base.verifyReceipt.mode == .off ? .fallback : base.verifyReceipt.mode,
            productionURL: URL(string: "http://apple.dev/production"),
            sandboxURL: URL(string: "http://apple.dev/sandbox"))
        let key = emulator.identity.apiKey
        configuration.appStoreServerAPI = AppStoreServerAPISettings(
            baseURL: URL(string: "http://apple.dev/sandbox")!, issuerId: key.issuerId, keyId: key.keyId,
            privateKeyPEM: key.privateKeyPEM)
        if configuration.revocationCheck.url == nil {
            configuration.revocationCheck.url = URL(string: "http://apple.dev/emulator/v1/ocsp")
        }
        // Play sells the same catalog under the bundle id; the service account is the
        // emulator's, passed to the server on its own (``playServiceAccount``).
        var play = base.googlePlay ?? GooglePlaySettings(packageName: emulator.configuration.bundleId)
        play.packageName = emulator.configuration.bundleId
        play.apiBaseURL = playBase
        play.serviceAccount = nil
        play.serviceAccountFile = nil
        play.pushAudience = playPushAudience
        play.pushEmail = PlayEmulator.defaultPushServiceAccountEmail
        play.certsURL = playBase.appendingPathComponent("emulator/v1/play/certs")
        configuration.googlePlay = play
        return configuration
    }

    /// Where the server reaches the emulator's Play side: the stack's transport sends
    /// `play.dev` to the emulator's port with `Host: play.dev`, so the service account the
    /// emulator issues for this base (`token_uri` `http://play.dev/token`) is the one its
    /// token endpoint expects assertions for.
    static let playBase = URL(string: "http://play.dev")!
    /// The `aud` of the emulator's Pub/Sub pushes, which the server requires.
    static let playPushAudience = "https://play.dev/v1/notifications/google"

    /// The emulator's service account for ``playBase``. Made on first use: its RSA key takes
    /// seconds to generate in a debug build, which no server start waits for.
    private static func playServiceAccount(_ emulator: AppStoreEmulator) -> @Sendable () throws -> ServiceAccountKey {
        { try emulator.play.serviceAccount(requestBase: playBase.absoluteString) }
    }

    /// Starts server instance `instance` with the support console (when the configuration
    /// enables it, on every instance); instance 0 also serves the emulator and the extra
    /// routes, and is where the emulator sends notifications.
    private func start(instance: Int) async throws {
        let store = try makeLedgerStore(url: settings.databaseURL)
        try await store.migrate()
        let state = state
        let apple = AsyncHTTPClientTransport(client: appleClient, timeout: settings.appleTimeoutSeconds)
        let interceptor = settings.interceptor
        let emulatorPort = emulatorListener.url.port
        let transport = ClosureHTTPTransport { request in
            if let interceptor, let answer = try await interceptor(request) { return answer }
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            var redirected = request
            if let host = components?.host, host == "apple.dev" || host == Self.playBase.host {
                components?.scheme = "http"
                components?.host = "127.0.0.1"
                components?.port = emulatorPort
                if host == Self.playBase.host { redirected.headers["Host"] = host }
            }
            redirected.url = components?.url ?? request.url
            return try await apple.send(redirected)
        }
        let server = try PurchaseServer(
            configuration: configuration, store: store,
            trustRoots: TrustRoots(TrustRoots.apple.certificates + emulator.trustRoots.certificates),
            httpTransport: transport, logger: settings.logger, playServiceAccount: Self.playServiceAccount(emulator))
        let router = Router(context: StoreKeeperRequestContext.self)
        server.addRoutes(to: router)
        if configuration.console.enabled {
            // Plain HTTP on loopback: the console's cookies cannot be Secure here.
            try SupportConsole(
                server: server, store: store, settings: configuration.console, secureCookies: false,
                logger: settings.logger
            ).addRoutes(to: router)
        }
        if instance == 0 {
            emulator.addRoutes(to: router)
            settings.extraRoutes(router)
        }

        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            server: configuration.load.httpServer,
            configuration: configuration.load.applicationConfiguration(
                address: .hostname("127.0.0.1", port: await state.port(instance: instance)), serverName: "storekeeper"),
            services: settings.runsBackgroundServices ? server.backgroundServices : [],
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: settings.logger
        )
        let group = ServiceGroup(
            services: [app], gracefulShutdownSignals: settings.handlesSignals ? [.sigterm, .sigint] : [],
            logger: settings.logger)
        let task = Task {
            // A server that fails to start (port taken) ends the port stream, so start() throws
            // instead of waiting for a port forever.
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            try? await store.close()
            throw DevStackError("the server did not start on 127.0.0.1:\(await state.port(instance: instance))")
        }
        await state.set(
            RunningServer(server: server, store: store, group: group, task: task), port: port, instance: instance)
        guard instance == 0 else { return }
        await emulator.setNotificationURL(
            settings.sendsNotifications ? URL(string: "http://127.0.0.1:\(port)/v1/notifications/apple") : nil)
        // Google Play's pushes go to the server's intake too, their OIDC token for the
        // audience the server expects.
        let google = settings.sendsNotifications ? URL(string: "http://127.0.0.1:\(port)/v1/notifications/google") : nil
        try await emulator.play.setPushConfiguration(
            PlayPushConfiguration(url: google, audience: Self.playPushAudience))
    }

    private func stopServer(instance: Int) async throws {
        guard let running = await state.take(instance: instance) else { return }
        await running.group.triggerGracefulShutdown()
        try? await running.task.value
        try await running.store.close()
    }
}

/// A stack that could not start.
public struct DevStackError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The running server instances and their ports, behind an actor. A port of 0 (not
/// started yet) picks a free one; an instance keeps its port across restarts.
private actor DevStackState {
    private var running: [Int: RunningServer] = [:]
    private var ports: [Int: Int] = [:]

    func port(instance: Int) -> Int {
        ports[instance] ?? 0
    }

    func setPort(_ port: Int, instance: Int) {
        ports[instance] = port
    }

    func set(_ running: RunningServer, port: Int, instance: Int) {
        self.running[instance] = running
        ports[instance] = port
    }

    func current(instance: Int) throws -> RunningServer {
        guard let running = running[instance] else {
            throw DevStackError("server instance \(instance) is not running")
        }
        return running
    }

    func take(instance: Int) -> RunningServer? {
        running.removeValue(forKey: instance)
    }
}

private struct RunningServer: Sendable {
    var server: PurchaseServer
    var store: any LedgerStore
    var group: ServiceGroup
    var task: Task<Void, any Error>
}
