import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AsyncHTTPClient
import Foundation
import Hummingbird
import Ledger
import LedgerTestSupport
import Logging
import NIOCore
import PurchaseServer
import ServiceLifecycle

/// A purchase server and an App Store emulator served together on one loopback port (as
/// `storekeeper serve --dev` does), on a fresh database of one kind. The server reaches
/// "Apple" at `http://apple.test/...`, which the transport sends to the emulator.
///
/// ``restart()`` tears the server down and builds a new one on the same database, as a
/// process restart would.
final class ServerFixture: Sendable {
    static let playerSecret = "test-player-secret"
    static let adminKey = "test-admin-key-0001"

    let kind: StoreKind
    let database: TestDatabase
    let emulator: AppStoreEmulator
    let emulatorDirectory: URL
    let configuration: ServerConfiguration
    private let state: FixtureState

    /// Starts everything. `notifications: false` keeps the emulator from posting
    /// notifications (they stay in its history, for the reconciler).
    init(
        _ kind: StoreKind,
        notifications: Bool = true,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws {
        self.kind = kind
        database = try await kind.makeDatabase()
        emulatorDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("server-emulator-\(UUID().uuidString.prefix(8))")
        emulator = try await AppStoreEmulator(
            configuration: EmulatorConfiguration(dataDirectory: emulatorDirectory, timeScale: 0.00001))
        let key = emulator.identity.apiKey
        var configuration = ServerConfiguration(
            bundleId: emulator.configuration.bundleId,
            appAppleId: emulator.configuration.appAppleId,
            deploymentEnvironment: .sandbox,
            allowedEnvironments: [.sandbox, .production],
            playerTokenSecret: Self.playerSecret,
            adminKey: Self.adminKey,
            verifyReceipt: VerifyReceiptSettings(
                mode: .fallback, productionURL: URL(string: "http://apple.test/production"),
                sandboxURL: URL(string: "http://apple.test/sandbox")),
            appStoreServerAPI: AppStoreServerAPISettings(
                baseURL: URL(string: "http://apple.test/sandbox")!, issuerId: key.issuerId, keyId: key.keyId,
                privateKeyPEM: key.privateKeyPEM),
            answerConsumptionRequests: true,
            reconcilerIntervalSeconds: 0
        )
        configure(&configuration)
        self.configuration = configuration
        state = FixtureState()
        try await start(notifications: notifications)
    }

    /// The running server.
    var server: PurchaseServer {
        get async { await state.running!.server }
    }

    /// The server's ledger (its own connection pool).
    var store: any LedgerStore {
        get async { await state.running!.store }
    }

    /// The base URL everything answers on.
    var baseURL: String {
        get async { "http://127.0.0.1:\(await state.port)" }
    }

    /// Stops the server and starts a new one on the same database, emulator and port.
    func restart(downtime: Duration = .zero) async throws {
        try await stopServer()
        try await Task.sleep(for: downtime)
        try await start(notifications: true)
    }

    /// Stops everything and removes the files.
    func shutdown() async {
        try? await stopServer()
        await emulator.shutdown()
        database.remove()
        try? FileManager.default.removeItem(at: emulatorDirectory)
    }

    private func start(notifications: Bool) async throws {
        let store = try database.open()
        try await store.migrate()
        let portBox = state
        let transport = ClosureHTTPTransport { request in
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
            if components.host == "apple.test" {
                components.scheme = "http"
                components.host = "127.0.0.1"
                components.port = await portBox.port
            }
            var redirected = request
            redirected.url = components.url!
            return try await AsyncHTTPClientTransport(timeout: 10).send(redirected)
        }
        var logger = Logger(label: "storekeeper-test")
        logger.logLevel = .warning
        let server = try PurchaseServer(
            configuration: configuration, store: store, trustRoots: emulator.trustRoots, httpTransport: transport,
            logger: logger)
        let router = Router()
        server.addRoutes(to: router)
        emulator.addRoutes(to: router)
        state.webhook.addRoute(to: router)

        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: await state.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        let task = Task { try await group.run() }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw FixtureError("the server did not start") }
        await state.set(Running(server: server, store: store, group: group, task: task), port: port)
        let url = URL(string: "http://127.0.0.1:\(port)/v1/notifications/apple")!
        await emulator.setNotificationURL(notifications ? url : nil)
    }

    private func stopServer() async throws {
        guard let running = await state.takeRunning() else { return }
        await running.group.triggerGracefulShutdown()
        try? await running.task.value
        try await running.store.close()
    }

    // MARK: Players and HTTP

    /// A valid player token.
    func token(_ playerId: String, lifetime: TimeInterval = 600) -> String {
        PlayerTokenVerifier.issue(playerId: playerId, secret: Self.playerSecret, lifetime: lifetime)
    }

    /// Sends a request; `credential` is a bearer token (player token or admin key).
    func send(
        _ method: RequestMethod, _ path: String, credential: String? = nil, body: Data? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: await baseURL + path)
        request.method = .init(rawValue: method.rawValue)
        if let credential { request.headers.add(name: "Authorization", value: "Bearer \(credential)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(timeout.components.seconds))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return HTTPAnswer(status: Int(response.status.code), body: Data(bytes.readableBytesView))
    }

    /// Sends `value` as JSON.
    func send(
        _ method: RequestMethod, _ path: String, credential: String? = nil, json value: some Encodable
    ) async throws -> HTTPAnswer {
        try await send(method, path, credential: credential, body: try JSONEncoder().encode(value))
    }

    /// Creates an order for `player`.
    func order(_ player: String, product: String = "coins100") async throws -> OrderReply {
        let answer = try await send(.POST, "/v1/orders", credential: token(player), json: ["productId": product])
        guard answer.status == 201 else { throw FixtureError("order failed: \(answer)") }
        return try answer.decode(OrderReply.self)
    }

    /// Pays on an emulated device; `token` is the order's app account token.
    func pay(product: String = "coins100", token: String?, device: String = "phone") async throws -> PurchaseResult {
        try await emulator.purchase(deviceId: device, PurchaseRequest(productId: product, appAccountToken: token))
    }

    /// Reports a signed transaction as `player`.
    func report(_ player: String, signedTransaction: String, orderId: String? = nil) async throws -> HTTPAnswer {
        var body = ["signedTransaction": signedTransaction]
        body["orderId"] = orderId
        return try await send(.POST, "/v1/purchases", credential: token(player), json: body)
    }

    /// The player's wallet.
    func wallet(_ player: String) async throws -> [String: Int64] {
        try await store.wallet(playerId: player)
    }

    /// Waits until `condition` holds (notifications arrive asynchronously), at most 20 s.
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError("timed out waiting for \(what)")
    }

    /// What the test webhook received.
    var webhook: WebhookRecorder { state.webhook }
}

/// The fixture's mutable parts, behind an actor.
private actor FixtureState {
    var running: Running?
    var port = 0
    let webhook = WebhookRecorder()

    func set(_ running: Running, port: Int) {
        self.running = running
        self.port = port
    }

    func takeRunning() -> Running? {
        defer { running = nil }
        return running
    }
}

private struct Running: Sendable {
    var server: PurchaseServer
    var store: any LedgerStore
    var group: ServiceGroup
    var task: Task<Void, any Error>
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
