import ArgumentParser
import StoreKeeperLogging

/// `--log-format`, on the commands that run for long and log (`serve`, `emulator`).
struct LoggingOptions: ParsableArguments {
    /// The format's name on the command line.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json

        /// The log handler's format.
        var logFormat: LogFormat {
            switch self {
            case .text: .text
            case .json: .json
            }
        }
    }

    @Option(
        help: """
            How log lines are written on standard error: text (one escaped line per record) or json \
            (one JSON object per line, for log collectors).
            """)
    var logFormat: Format = .text
}

/// A command whose log format is an option (``LoggingOptions``): the log is set up after the
/// command line is parsed.
protocol LoggingCommand {
    /// The command's logging options.
    var logging: LoggingOptions { get }
}

extension ServeCommand: LoggingCommand {}
extension EmulatorCommand: LoggingCommand {}
