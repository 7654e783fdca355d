import ArgumentParser
import Foundation
import HTTPRouting
import Hummingbird
import Logging
import PurchaseServer
import StoreKeeperDev
import SupportConsole

/// `storekeeper serve`: the purchase server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the purchase server (orders, verification, exactly-once delivery, notifications).",
        discussion: """
            Configuration comes from --config (JSON) and STOREKEEPER_* environment variables. \
            `storekeeper serve --dev` needs neither. The HTTP API is in docs/openapi.yaml.
            """
    )

    @OptionGroup var options: ServerOptions

    @OptionGroup var logging: LoggingOptions

    @Option(help: "The port to listen on.")
    var port: Int = 8080

    @Option(help: "The address to bind (--dev always binds 127.0.0.1).")
    var hostname: String = "0.0.0.0"

    @Flag(
        help: """
            Newcomer mode: bind 127.0.0.1 only, run the App Store emulator in-process on the same port \
            (/emulator, /sandbox, /production), trust its roots (outside --dev, only the additionalRoots \
            of a Sandbox deployment do), and use \
            dev-player-secret / dev-admin-key unless configured.
            """)
    var dev = false

    @Option(help: "With --dev: where the emulator keeps its CA, API key and state.")
    var devDataDir: String = "./storekeeper-dev"

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
    }

    func run() async throws {
        let logger = Logger(label: "storekeeper")
        try ListeningAddress.checkFree(host: dev ? "127.0.0.1" : hostname, port: port)
        if dev {
            try await runDevelopment(logger: logger)
        } else {
            try await runProduction(logger: logger)
        }
    }

    private func runProduction(logger: Logger) async throws {
        let configuration = try options.configuration()
        let store = try await options.openStore()
        let server: PurchaseServer
        do {
            server = try PurchaseServer(configuration: configuration, store: store, logger: logger)
        } catch let error as ConfigurationError {
            try await store.close()
            throw ValidationError(error.description)
        }
        let router = Router(context: StoreKeeperRequestContext.self)
        server.addRoutes(to: router)
        if configuration.console.enabled {
            do {
                try SupportConsole(
                    server: server, store: store, settings: configuration.console,
                    secureCookies: configuration.console.secureCookies ?? true, logger: logger
                ).addRoutes(to: router)
            } catch {
                try await store.close()
                throw error
            }
        }
        let load = configuration.load
        let connectionLimit = load.connectionLimit(
            descriptorLimit: DescriptorLimit.raise(
                toAtLeast: load.maximumConnections + LoadSettings.reservedDescriptors))
        if connectionLimit < load.maximumConnections {
            logger.warning(
                "the open-file limit (ulimit -n) allows fewer connections than load.maximumConnections",
                metadata: ["connections": "\(connectionLimit)", "maximumConnections": "\(load.maximumConnections)"])
        }
        let app = Application(
            router: router,
            server: load.httpServer,
            configuration: load.applicationConfiguration(
                address: .hostname(hostname, port: port), serverName: "storekeeper", connectionLimit: connectionLimit),
            services: server.backgroundServices,
            logger: logger
        )
        logger.info(
            "starting", metadata: ["configuration": "\(configuration)", "database": "\(options.redactedDatabaseURL)"])
        try await app.runService()
        try await store.close()
    }

    private func runDevelopment(logger: Logger) async throws {
        let stack: DevStack
        do {
            stack = try await DevStack(
                DevStackConfiguration(
                    port: port, databaseURL: options.databaseURL,
                    emulatorDirectory: URL(fileURLWithPath: devDataDir).appendingPathComponent("emulator"),
                    server: try options.configuration(base: DevStackConfiguration.development, validated: false),
                    handlesSignals: true, logger: logger))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        logger.info(
            "starting",
            metadata: ["configuration": "\(stack.configuration)", "database": "\(options.redactedDatabaseURL)"])
        let consolePassword =
            stack.configuration.console.enabled
            ? try await DevAdmin.prepare(store: stack.store, cost: stack.configuration.console.passwordHashCost) : nil
        FileHandle.standardOutput.write(Data(devGuide(stack.configuration, consolePassword: consolePassword).utf8))
        try await stack.waitUntilStopped()
    }

    /// What `serve --dev` prints: where things answer, the support console's account
    /// (`consolePassword`: dev-admin's new password, `nil` when the console is off) and a
    /// purchase to try.
    private func devGuide(_ configuration: ServerConfiguration, consolePassword: String?) -> String {
        let base = "http://127.0.0.1:\(port)"
        let console =
            consolePassword.map {
                "\nSupport console: \(base)/console/ (sign in as \(DevAdmin.name), password \($0))"
            } ?? ""
        let token = PlayerTokenVerifier.issue(
            playerId: "alice", secret: configuration.playerTokenSecret ?? "",
            lifetime: PlayerTokenVerifier.developmentLifetime)
        return """
            StoreKeeper dev server on \(base) (ledger \(options.redactedDatabaseURL), emulator data in \(devDataDir))
            The App Store emulator answers on the same port: \(base)/emulator/v1, \(base)/sandbox.\(console)

            Try a purchase as player "alice" (token valid 7 days; `storekeeper token --player NAME` makes more;
            the commands use curl and jq):
              export TOKEN=\(token)
              curl -s \(base)/v1/products
              # an order; its appAccountToken binds the payment to alice:
              APP_ACCOUNT_TOKEN=$(curl -s -X POST \(base)/v1/orders -H "Authorization: Bearer $TOKEN" \\
                   -d '{"productId":"coins100"}' | jq -r .appAccountToken)
              # pay on an emulated device (no app receipt: StoreKit 2 reports the signed transaction):
              JWS=$(curl -s -X POST \(base)/emulator/v1/devices/phone1/purchases \\
                   -d "{\\"productId\\":\\"coins100\\",\\"appAccountToken\\":\\"$APP_ACCOUNT_TOKEN\\",\\"includeAppReceipt\\":false}" \\
                   | jq -r .signedTransaction)
              # report it (the emulator's notification may have delivered it first: then already_delivered):
              curl -s -X POST \(base)/v1/purchases -H "Authorization: Bearer $TOKEN" \\
                   -d "{\\"signedTransaction\\":\\"$JWS\\"}" | jq .
              curl -s \(base)/v1/players/me/wallet -H "Authorization: Bearer $TOKEN"
              curl -s \(base)/v1/admin/players/alice/timeline -H "Authorization: Bearer \(configuration.adminKey ?? "")"

            """
    }
}
