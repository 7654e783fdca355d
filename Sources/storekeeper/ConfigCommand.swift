import ArgumentParser
import Foundation

/// `storekeeper config`: work with a server configuration without starting a server.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Check a server configuration without starting anything.",
        subcommands: [ConfigCheckCommand.self]
    )
}

/// `storekeeper config check`: every problem `serve` would meet in its configuration.
struct ConfigCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the configuration file and STOREKEEPER_* variables, reporting every problem at once.",
        discussion: """
            Reads what `serve` reads (the file, the environment, the files they name: additional roots, the \
            App Store Server API key) and checks what `serve` checks before it opens the ledger; connects to \
            nothing and writes nothing. Exit status 0 when `serve` can start with it, 1 with every problem \
            listed on standard error.
            """
    )

    @OptionGroup var options: ServerOptions

    func run() throws {
        let checked = options.check()
        guard let configuration = checked.configuration, checked.problems.isEmpty else {
            let count = checked.problems.count
            FileHandle.standardError.write(
                Data(
                    ("the configuration has \(count) problem\(count == 1 ? "" : "s"):\n  "
                        + checked.problems.joined(separator: "\n  ") + "\n").utf8))
            throw ExitCode.rejected
        }
        print("the configuration can be used: \(configuration.description) database=\(options.redactedDatabaseURL)")
    }
}
