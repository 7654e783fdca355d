import AppStoreEmulator
import ArgumentParser
import Foundation
import Hummingbird
import Ledger
import Logging
import PurchaseServer

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

    @Option(help: "The address to bind (ignored with --dev, which binds 127.0.0.1).")
    var hostname: String = "0.0.0.0"

    func run() async throws {
        let logger = Logger(label: "storekeeper")
        let emulator = try await options.makeDevEmulator()
        let configuration: ServerConfiguration
        do {
            configuration = try options.configuration(emulator: emulator)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let store = try await options.openStore()
        let server: PurchaseServer
        do {
            server = try PurchaseServer(
                configuration: configuration, store: store, trustRoots: options.trustRoots(emulator: emulator),
                logger: logger)
        } catch let error as ConfigurationError {
            try await store.close()
            throw ValidationError(error.description)
        }

        let router = Router()
        server.addRoutes(to: router)
        emulator?.addRoutes(to: router)
        let host = options.dev ? "127.0.0.1" : hostname
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: options.port), serverName: "storekeeper"),
            services: server.backgroundServices,
            logger: logger
        )
        logger.info("starting", metadata: ["configuration": "\(configuration)", "database": "\(redacted(options.database))"])
        if options.dev { printDevGuide(configuration) }
        try await app.runService()
        await emulator?.shutdown()
        try await store.close()
    }

    /// A database URL without its password.
    private func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }

    private func printDevGuide(_ configuration: ServerConfiguration) {
        let base = "http://127.0.0.1:\(options.port)"
        let token = PlayerTokenVerifier.issue(
            playerId: "alice", secret: configuration.playerTokenSecret ?? "", lifetime: 7 * 86_400)
        let guide = """
            StoreKeeper dev server on \(base) (ledger \(options.database), emulator data in \(options.devDataDir))
            The App Store emulator answers on the same port: \(base)/emulator/v1, \(base)/sandbox.

            Try a purchase as player "alice" (token valid 7 days; `storekeeper token --player NAME` makes more):
              export TOKEN=\(token)
              curl -s \(base)/v1/products
              curl -s -X POST \(base)/v1/orders -H "Authorization: Bearer $TOKEN" -d '{"productId":"coins100"}'
              # pay on an emulated device, with the order's appAccountToken:
              curl -s -X POST \(base)/emulator/v1/devices/phone1/purchases \\
                   -d '{"productId":"coins100","appAccountToken":"<appAccountToken>"}'
              # report the signedTransaction the device got:
              curl -s -X POST \(base)/v1/purchases -H "Authorization: Bearer $TOKEN" \\
                   -d '{"signedTransaction":"<signedTransaction>"}'
              curl -s \(base)/v1/players/me/wallet -H "Authorization: Bearer $TOKEN"
              curl -s \(base)/v1/admin/players/alice/timeline -H "Authorization: Bearer \(configuration.adminKey ?? "")"

            """
        FileHandle.standardOutput.write(Data(guide.utf8))
    }
}
