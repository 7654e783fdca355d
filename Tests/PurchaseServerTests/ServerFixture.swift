import AppStoreAPI
import AppStoreEmulator
import AppStoreModel
import AsyncHTTPClient
import EmulatorTestSupport
import Foundation
import Ledger
import LedgerTestSupport
import Logging
import NIOCore
import PlayEmulator
import PlaySigning
import PurchaseServer
import StoreKeeperDev

/// A ``DevStack`` (purchase server and emulator on one loopback port) on a fresh database
/// of one kind, with the HTTP helpers the tests use. The server reaches its webhook at
/// `http://apple.dev/test/webhook`, served by ``webhook`` beside the emulator.
final class ServerFixture: Sendable {
    static let playerSecret = "test-player-secret"
    static let adminKey = "test-admin-key-0001"
    /// Long enough for the emulator to answer while the whole suite saturates two cores (3 s,
    /// the dev default, was not: a report came back `apple_unavailable`).
    static let appleTimeoutSeconds: TimeInterval = 20

    let kind: StoreKind
    let database: TestDatabase
    let stack: DevStack
    let webhook = WebhookRecorder()
    private let emulatorDirectory: URL

    /// The emulator's Play keys (service account, license), made once per test process:
    /// RSA-2048 takes seconds to generate in a debug build.
    static let playKeyPEMs = Result {
        try PlayEmulator.keyFileNames.map { _ in RSAKeyPEM.pkcs8PEM(of: try RSAKeyPEM.generate()) }
    }

    /// Starts everything. `notifications: false` keeps the emulator from posting
    /// notifications (they stay in its history, for the reconciler); `logger` is what the
    /// server and the emulator log to (warnings and worse to standard error by default);
    /// `playKeys` gives the emulator's Play side the process's keys before it starts;
    /// `subscriptionTimeScale` is the emulator's (Apple's periods and Google's three days to
    /// acknowledge; `nil` for the dev stack's 1/8640, which makes the three days 30 s: too
    /// short for a Play test on a saturated machine, so those pass 1);
    /// `interceptor` sees the server's requests to the emulator first (a fault);
    /// `playClock`, when given, is the emulator's Google Play clock (the real clock
    /// otherwise): Google's purchases, subscription periods and three days stand still until
    /// the test moves it (start it at `Date()`: the server keeps real time).
    init(
        _ kind: StoreKind,
        notifications: Bool = true,
        logger: Logger? = nil,
        playKeys: Bool = false,
        subscriptionTimeScale: Double? = nil,
        playClock: ManualClock? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        interceptor: (@Sendable (HTTPRequestData) async throws -> HTTPResponseData?)? = nil
    ) async throws {
        self.kind = kind
        database = try await kind.makeDatabase()
        emulatorDirectory = try TestEmulatorDirectory.make("server-emulator")
        if playKeys {
            for (name, pem) in zip(PlayEmulator.keyFileNames, try Self.playKeyPEMs.get()) {
                try pem.write(to: emulatorDirectory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
        }
        var configuration = ServerConfiguration(
            deploymentEnvironment: .sandbox,
            allowedEnvironments: [.sandbox, .production],
            playerTokenSecret: Self.playerSecret,
            adminKey: Self.adminKey,
            answerConsumptionRequests: true,
            reconcilerIntervalSeconds: 0
        )
        configure(&configuration)
        let logger =
            logger
            ?? {
                var logger = Logger(label: "storekeeper-test")
                logger.logLevel = .warning
                return logger
            }()
        let now: @Sendable () -> Date
        if let playClock { now = { playClock.now } } else { now = { Date() } }
        stack = try await DevStack(
            DevStackConfiguration(
                databaseURL: database.url, emulatorDirectory: emulatorDirectory, sendsNotifications: notifications,
                notificationTimeScale: 0.00001, subscriptionTimeScale: subscriptionTimeScale, server: configuration,
                extraRoutes: webhook.addRoute,
                runsBackgroundServices: false, appleTimeoutSeconds: Self.appleTimeoutSeconds,
                interceptor: interceptor, playClock: now, logger: logger))
    }

    var emulator: AppStoreEmulator { stack.emulator }

    /// The running server.
    var server: PurchaseServer {
        get async throws { try await stack.server }
    }

    /// The server's ledger.
    var store: any LedgerStore {
        get async throws { try await stack.store }
    }

    /// Stops the server and starts a new one on the same database, emulator and port.
    func restart(downtime: Duration = .zero) async throws {
        try await stack.restart(downtime: downtime)
    }

    /// Stops everything and removes the files.
    func shutdown() async {
        await stack.stop()
        database.remove()
        try? FileManager.default.removeItem(at: emulatorDirectory)
    }

    // MARK: Players and HTTP

    /// A valid player token.
    func token(_ playerId: String, lifetime: TimeInterval = 600) -> String {
        PlayerTokenVerifier.issue(playerId: playerId, secret: Self.playerSecret, lifetime: lifetime)
    }

    /// Sends a request; `credential` is a bearer token (player token or admin key).
    func send(
        _ method: RequestMethod, _ path: String, credential: String? = nil, body: Data? = nil,
        timeout: TimeAmount = .seconds(30)
    ) async throws -> HTTPAnswer {
        var request = HTTPClientRequest(url: await stack.baseURL.absoluteString + path)
        request.method = .init(rawValue: method.rawValue.uppercased())
        if let credential { request.headers.add(name: "Authorization", value: "Bearer \(credential)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.loopback.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 16 << 20)
        let headers = Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        return HTTPAnswer(status: Int(response.status.code), body: Data(bytes.readableBytesView), headers: headers)
    }

    /// Sends `value` as JSON.
    func send(
        _ method: RequestMethod, _ path: String, credential: String? = nil, json value: some Encodable
    ) async throws -> HTTPAnswer {
        try await send(method, path, credential: credential, body: try JSONEncoder().encode(value))
    }

    /// Creates an order for `player`.
    func order(_ player: String, product: String = "coins100") async throws -> OrderReply {
        let answer = try await send(.post, "/v1/orders", credential: token(player), json: ["productId": product])
        guard answer.status == 201 else { throw FixtureError("order failed: \(answer)") }
        return try answer.decode(OrderReply.self)
    }

    /// Pays on an emulated device; `token` is the order's app account token.
    func pay(product: String = "coins100", token: String?, device: String = "phone") async throws -> PurchaseResult {
        try await emulator.purchase(deviceId: device, PurchaseRequest(productId: product, appAccountToken: token))
    }

    /// The signed payload of the latest notification of `type` the emulator issued about
    /// `transactionId` (with notifications off, the test posts it itself).
    func signedNotification(_ type: NotificationType, about transactionId: String) async throws -> String {
        let notification = await emulator.notifications().last {
            $0.transactionId == transactionId && $0.notificationType == type
        }
        guard let notification else { throw FixtureError("no \(type.rawValue) about \(transactionId)") }
        return notification.signedPayload
    }

    /// Reports a signed transaction as `player`; `timeout` bounds the wait for the answer.
    func report(
        _ player: String, signedTransaction: String, orderId: String? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> HTTPAnswer {
        var body = ["signedTransaction": signedTransaction]
        body["orderId"] = orderId
        return try await send(
            .post, "/v1/purchases", credential: token(player), body: try JSONEncoder().encode(body), timeout: timeout)
    }

    /// The player's wallet.
    func wallet(_ player: String) async throws -> [String: Int64] {
        try await store.wallet(playerId: player)
    }

    /// Waits until `condition` holds (notifications arrive asynchronously), at most 60 s: it
    /// returns as soon as it holds, and the whole suite on two busy cores once took over 20 s
    /// to process one notification on PostgreSQL (FinishAtAppleTests).
    func eventually(
        _ what: String, within timeout: Duration = .seconds(60), _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureError("timed out waiting for \(what)")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
