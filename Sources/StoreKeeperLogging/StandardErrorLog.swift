import Foundation
import Logging

/// The log of a `storekeeper` process: every logger writes ``EscapingLogHandler`` lines on
/// standard error, in one format, and a record that repeats (a warning or an error, e.g. one
/// failure per request while a disk is full) is written once per 10 seconds with its count
/// (``RepeatedLogLines``).
public enum StandardErrorLog {
    /// Makes every logger of the process write to standard error in `format` (call once,
    /// before the first logger is made), and writes the repeat counts every second.
    public static func bootstrap(format: LogFormat) {
        let repeats = RepeatedLogLines()
        LoggingSystem.bootstrap { label in
            EscapingLogHandler(label: label, format: format, repeats: repeats) { line in
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        Task.detached(priority: .background) {
            while true {
                try? await Task.sleep(for: .seconds(1))
                repeats.flush()
            }
        }
    }
}
