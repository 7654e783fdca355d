import Foundation
import Logging
import StoreKeeperLogging
import Synchronization
import Testing

/// A flood of one error is one line, then one count line per interval, on a clock the test
/// moves (no sleeps).
@Suite struct RepeatedLogLinesTests {
    /// A clock the test moves by hand.
    private final class TestClock: Sendable {
        private let time = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { time.withLock { $0 } }
        func advance(_ duration: Duration) { time.withLock { $0 += duration } }
    }

    /// A logger whose handler counts repeats on `clock`, and the lines it wrote.
    private final class Log: Sendable {
        let clock = TestClock()
        let repeats: RepeatedLogLines
        private let text = Mutex("")
        let format: LogFormat

        init(format: LogFormat = .text) {
            let clock = clock
            repeats = RepeatedLogLines(interval: .seconds(10), now: { clock.now })
            self.format = format
        }

        var lines: [Substring] { text.withLock { $0 }.split(separator: "\n") }

        var logger: Logger {
            var logger = Logger(label: "storekeeper") { label in
                EscapingLogHandler(label: label, format: self.format, repeats: self.repeats) { line in
                    self.text.withLock { $0 += line }
                }
            }
            logger.logLevel = .trace
            return logger
        }

        func requestFailed(path: String, error: String = "storage unavailable (full): SQLite error 13") {
            logger.error(
                "request failed",
                metadata: [
                    "route": "/v1/purchases", "code": "storage_unavailable", "path": .string(path),
                    "error": .string(error),
                ])
        }
    }

    @Test func aFloodOfOneErrorIsOneLineThenACountPerInterval() {
        let log = Log()
        for index in 0..<4_700 {
            log.requestFailed(path: "/v1/purchases?n=\(index)")
            if index % 470 == 0 { log.clock.advance(.milliseconds(900)) }
        }
        #expect(log.lines.count == 1, "\(log.lines)")
        #expect(log.lines.first?.contains("path=\"/v1/purchases?n=0\"") == true, "the first is written whole")
        log.clock.advance(.seconds(1))
        log.repeats.flush()
        #expect(log.lines.count == 2)
        let count = String(log.lines[1])
        #expect(count.contains("] request failed (repeated 4699 times in the last 10 s)"), "\(count)")
        #expect(count.contains("repeated=4699"))
        #expect(count.contains("code=storage_unavailable"))
        #expect(!count.contains("path="), "the repeats' paths differ: the count line names none")

        // Still failing: one count line per interval, never the line again.
        for _ in 0..<100 { log.requestFailed(path: "/v1/orders") }
        log.clock.advance(.seconds(10))
        log.repeats.flush()
        #expect(log.lines.count == 3)
        #expect(log.lines[2].contains("(repeated 100 times in the last 10 s)"))

        // Quiet for a whole interval: forgotten; when it comes back it is written whole.
        log.clock.advance(.seconds(10))
        log.repeats.flush()
        #expect(log.lines.count == 3, "no count line for an interval without repeats")
        log.clock.advance(.seconds(10))
        log.requestFailed(path: "/v1/purchases")
        #expect(log.lines.count == 4)
        #expect(log.lines[3].hasSuffix("] request failed"))
    }

    @Test func differentErrorsRoutesAndLevelsAreCountedApart() {
        let log = Log()
        log.requestFailed(path: "/a")
        log.requestFailed(path: "/b")
        log.requestFailed(path: "/a", error: "another error")
        log.logger.error("request failed", metadata: ["route": "/v1/orders", "code": "storage_unavailable"])
        log.logger.warning("request failed", metadata: ["route": "/v1/purchases", "code": "storage_unavailable"])
        for _ in 0..<3 { log.logger.info("delivered", metadata: ["transactionId": "1"]) }
        #expect(log.lines.count == 4 + 3, "each distinct record once; info records are never counted")
        log.clock.advance(.seconds(10))
        // A count line is written before the next counted record as well as by flush().
        log.logger.error("next")
        #expect(log.lines.count == 9)
        #expect(log.lines[7].contains("(repeated once in the last 10 s)"))
    }

    @Test func countLinesAreJSONInTheJSONFormat() throws {
        let log = Log(format: .json)
        for _ in 0..<5 { log.requestFailed(path: "/v1/purchases") }
        log.clock.advance(.seconds(12))
        log.repeats.flush()
        #expect(log.lines.count == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(log.lines[1].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request failed (repeated 4 times in the last 12 s)")
        #expect((object["metadata"] as? [String: String])?["repeated"] == "4")
    }
}
