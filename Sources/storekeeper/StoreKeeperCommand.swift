import ArgumentParser
import Foundation
import StoreKeeperLogging

/// `storekeeper`: StoreKeeper's command line.
///
/// Exit status: 0 when the command succeeded (data verified), 1 when data was
/// rejected, 2 for usage errors (bad options, unreadable files).
@main
struct StoreKeeperCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storekeeper",
        abstract: "In-App Purchases that never lose an order.",
        subcommands: [
            ServeCommand.self, ReconcileCommand.self, TokenCommand.self, EmulatorCommand.self, ReceiptCommand.self,
            JWSCommand.self, BenchCommand.self, LoadTestCommand.self, DemoCommand.self, SimulateCommand.self,
            StaffCommand.self, BackupCommand.self, ConfigCommand.self, FillLedgerCommand.self,
        ]
    )

    /// Runs the command line with StoreKeeper's exit statuses and its log lines
    /// (``EscapingLogHandler``: nothing a client sends can forge one), in the format of the
    /// command's `--log-format` (``LoggingOptions``), text otherwise.
    static func main() async {
        do {
            var command = try parseAsRoot()
            StandardErrorLog.bootstrap(format: logFormat(of: command))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exitCode as ExitCode {
            Foundation.exit(exitCode.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}

/// The log format `command` asks for: its `--log-format` (``LoggingOptions``), or text.
private func logFormat(of command: any ParsableCommand) -> LogFormat {
    guard let command = command as? any LoggingCommand else { return .text }
    return command.logging.logFormat.logFormat
}

/// Exit status for data that was rejected.
extension ExitCode {
    static let rejected = ExitCode(1)
}
