/// The machine's load averages, from Linux's `/proc/loadavg`: how many tasks were running
/// or waiting to run, averaged over 1, 5 and 15 minutes.
struct LoadTestLoadAverage: Encodable, Equatable, Sendable {
    var oneMinute: Double
    var fiveMinutes: Double
    var fifteenMinutes: Double

    /// Parses the text of `/proc/loadavg` (`0.52 0.58 0.59 1/389 12345`); `nil` when it does
    /// not start with three finite, non-negative numbers.
    init?(loadavg: String) {
        let fields = loadavg.split(whereSeparator: \.isWhitespace).prefix(3).compactMap { Double($0) }
        guard fields.count == 3, fields.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        oneMinute = fields[0]
        fiveMinutes = fields[1]
        fifteenMinutes = fields[2]
    }

    /// The load averages now; `nil` when `/proc/loadavg` cannot be read or parsed.
    static func read() -> LoadTestLoadAverage? {
        LoadTestProcFile.text("/proc/loadavg").flatMap { LoadTestLoadAverage(loadavg: $0) }
    }
}
