import AppStoreEmulator
import AppStoreVerification
import ArgumentParser
import Foundation
import Ledger
import PurchaseServer

/// The options `serve` and `reconcile` share, and how they become a running setup.
struct ServerOptions: ParsableArguments {
    @Option(help: "A JSON configuration file (see docs/server.md); STOREKEEPER_* variables override it.")
    var config: String?

    @Option(help: "The ledger: sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database.")
    var database: String = "sqlite:./storekeeper.sqlite"

    @Option(help: "The port to listen on (with --dev, also where the in-process emulator answers).")
    var port: Int = 8080

    @Flag(
        help: """
            Newcomer mode: bind 127.0.0.1 only, run the App Store emulator in-process under /emulator, \
            /sandbox and /production on the same port, trust its roots (never outside --dev), and use \
            dev-player-secret / dev-admin-key unless configured.
            """)
    var dev = false

    @Option(help: "With --dev: where the emulator keeps its CA, API key and state.")
    var devDataDir: String = "./storekeeper-dev"

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
        _ = try StoreURL(parsing: database)
    }

    /// The file configuration with the environment applied (and, with `--dev`, the
    /// emulator wiring).
    func configuration(emulator: AppStoreEmulator?) throws -> ServerConfiguration {
        var configuration = try config.map { try ServerConfiguration.load(from: URL(fileURLWithPath: $0)) } ?? .init()
        configuration = try configuration.applyingEnvironment(ProcessInfo.processInfo.environment)
        guard let emulator else { return configuration }
        let base = "http://127.0.0.1:\(port)"
        configuration.bundleId = emulator.configuration.bundleId
        configuration.appAppleId = emulator.configuration.appAppleId
        configuration.deploymentEnvironment = .sandbox
        configuration.allowedEnvironments = [.sandbox, .production, .xcode]
        configuration.playerTokenSecret = configuration.playerTokenSecret ?? "dev-player-secret"
        configuration.adminKey = configuration.adminKey ?? "dev-admin-key"
        configuration.verifyReceipt = VerifyReceiptSettings(
            mode: .fallback, productionURL: URL(string: "\(base)/production"), sandboxURL: URL(string: "\(base)/sandbox"))
        let key = emulator.identity.apiKey
        configuration.appStoreServerAPI = AppStoreServerAPISettings(
            baseURL: URL(string: "\(base)/sandbox")!, issuerId: key.issuerId, keyId: key.keyId,
            privateKeyPEM: key.privateKeyPEM)
        configuration.answerConsumptionRequests = true
        configuration.reconcilerIntervalSeconds = 60
        return configuration
    }

    /// The emulator `--dev` runs in-process (notifications go to this server), or `nil`.
    func makeDevEmulator() async throws -> AppStoreEmulator? {
        guard dev else { return nil }
        return try await AppStoreEmulator(
            configuration: EmulatorConfiguration(
                dataDirectory: URL(fileURLWithPath: devDataDir).appendingPathComponent("emulator"),
                notificationURL: URL(string: "http://127.0.0.1:\(port)/v1/notifications/apple"),
                timeScale: 0.001
            )
        )
    }

    /// The roots signed data must chain to: Apple's, plus the emulator's with `--dev` only.
    func trustRoots(emulator: AppStoreEmulator?) -> TrustRoots {
        guard let emulator else { return .apple }
        return TrustRoots(TrustRoots.apple.certificates + emulator.trustRoots.certificates)
    }

    /// Opens and migrates the ledger.
    func openStore() async throws -> any LedgerStore {
        let store = try makeLedgerStore(url: database)
        try await store.migrate()
        return store
    }
}
