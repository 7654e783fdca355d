import ArgumentParser
import Foundation
import Ledger
import PurchaseServer

/// The options `serve` and `reconcile` share: where the configuration and the ledger are.
struct ServerOptions: ParsableArguments {
    @Option(help: "A JSON configuration file (see docs/server.md); STOREKEEPER_* variables override it.")
    var config: String?

    @Option(
        help: """
            The ledger: sqlite:PATH, sqlite::memory: or postgres://user:password@host:port/database \
            (default: $STOREKEEPER_DATABASE, else sqlite:./storekeeper.sqlite).
            """)
    var database: String?

    /// The ledger URL: the option, the environment, or the embedded default.
    var databaseURL: String {
        database ?? ProcessInfo.processInfo.environment["STOREKEEPER_DATABASE"] ?? "sqlite:./storekeeper.sqlite"
    }

    /// The ledger URL without its password, for logs.
    var redactedDatabaseURL: String {
        guard var components = URLComponents(string: databaseURL), components.password != nil else {
            return databaseURL
        }
        components.password = "***"
        return components.string ?? "postgres://***"
    }

    func validate() throws {
        _ = try StoreURL(parsing: databaseURL)
    }

    /// The file configuration (or `base`) with the environment applied; with `validated`,
    /// refuses one the server cannot start with.
    func configuration(
        base: ServerConfiguration = ServerConfiguration(), validated: Bool = true
    ) throws -> ServerConfiguration {
        let configuration: ServerConfiguration
        do {
            configuration = try (config.map { try ServerConfiguration.load(from: URL(fileURLWithPath: $0)) } ?? base)
                .applyingEnvironment(ProcessInfo.processInfo.environment)
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        let problems = configuration.validationProblems()
        guard !validated || problems.isEmpty else {
            throw ValidationError("the configuration cannot be used:\n  " + problems.joined(separator: "\n  "))
        }
        if validated {
            // The root files are read once more by the server; reading them here refuses a
            // missing or unreadable one before the ledger is opened.
            do {
                _ = try configuration.additionalRootCertificates()
            } catch let error as ConfigurationError {
                throw ValidationError(error.description)
            }
        }
        return configuration
    }

    /// Opens and migrates the ledger.
    func openStore() async throws -> any LedgerStore {
        let store = try makeLedgerStore(url: databaseURL)
        try await store.migrate()
        return store
    }
}
