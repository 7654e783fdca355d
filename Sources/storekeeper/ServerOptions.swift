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
    var databaseURL: String { Self.databaseURL(option: database) }

    /// The ledger URL a `--database` option names: the option, `$STOREKEEPER_DATABASE`, or
    /// the embedded default.
    static func databaseURL(option: String?) -> String {
        option ?? ProcessInfo.processInfo.environment["STOREKEEPER_DATABASE"] ?? "sqlite:./storekeeper.sqlite"
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
    ///
    /// - Throws: `ValidationError` listing every problem ``check(base:startup:)`` finds.
    func configuration(
        base: ServerConfiguration = ServerConfiguration(), validated: Bool = true
    ) throws -> ServerConfiguration {
        let checked = check(base: base, startup: validated)
        guard checked.problems.isEmpty, let configuration = checked.configuration else {
            throw ValidationError("the configuration cannot be used:\n  " + checked.problems.joined(separator: "\n  "))
        }
        return configuration
    }

    /// The configuration (`nil` when its file cannot be read) and every problem found in it:
    /// the file's, each `STOREKEEPER_*` variable's and, with `startup`,
    /// ``ServerConfiguration/startupProblems()`` (files it names included). Starts nothing.
    func check(base: ServerConfiguration = ServerConfiguration(), startup: Bool = true) -> (
        configuration: ServerConfiguration?, problems: [String]
    ) {
        var problems: [String] = []
        var file: ServerConfiguration? = base
        if let config {
            do {
                file = try ServerConfiguration.load(from: URL(fileURLWithPath: config))
            } catch let error as ConfigurationError {
                problems.append(error.description)
                file = nil
            } catch {
                problems.append("cannot read \(config): \(error.localizedDescription)")
                file = nil
            }
        }
        // The variables are checked even when the file is unusable, so one run reports both.
        let configuration = (file ?? base).applyingEnvironment(ProcessInfo.processInfo.environment, problems: &problems)
        guard file != nil else { return (nil, problems) }
        if startup { problems += configuration.startupProblems() }
        return (configuration, problems)
    }

    /// Opens and migrates the ledger.
    func openStore() async throws -> any LedgerStore {
        let store = try makeLedgerStore(url: databaseURL)
        try await store.migrate()
        return store
    }
}
