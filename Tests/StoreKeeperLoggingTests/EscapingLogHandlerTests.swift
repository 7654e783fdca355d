import Logging
import StoreKeeperLogging
import Synchronization
import Testing

/// Lines written by a handler under test.
private final class CapturedLines: Sendable {
    private let text = Mutex("")

    var lines: [Substring] {
        let text = text.withLock { $0 }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    }

    var all: String { text.withLock { $0 } }

    func logger(label: String = "storekeeper") -> Logger {
        Logger(label: label) { label in
            EscapingLogHandler(label: label) { line in self.text.withLock { $0 += line } }
        }
    }
}

/// Texts a client can put in any field: line breaks of every kind, terminal escapes,
/// bidirectional overrides, a forged `key=value`, a forged record.
private let hostileTexts = [
    "1\n2026-11-28T13:09:00+0000 critical storekeeper: FORGED LINE",
    "1\r2026-11-28T13:09:00+0000 critical storekeeper: FORGED LINE",
    "1\r\n\n\n",
    "a\u{85}b\u{2028}c\u{2029}d\u{0B}e\u{0C}f",
    "\u{1B}[2J\u{1B}[31mred\u{1B}[0m",
    "evil\u{202E}txt.exe\u{2066}",
    "zero\u{200B}width\u{FEFF}",
    "x\" forged=\"yes",
    "back\\slash\\n",
    "\u{7F}\u{0}\u{1}",
]

@Suite struct EscapingLogHandlerTests {
    @Test func everyRecordIsOneLineWhateverItsFieldsHold() {
        let captured = CapturedLines()
        var logger = captured.logger(label: "store\nkeeper")
        logger.logLevel = .trace
        for text in hostileTexts {
            logger[metadataKey: "context\n"] = .string(text)
            logger.notice(
                "refused \(text)",
                metadata: [
                    "transactionId": .string(text), "list": .array([.string(text)]),
                    "nested": .dictionary([text: .stringConvertible(text)]), "key\r\(text)": "v",
                ], source: text)
        }
        #expect(captured.lines.count == hostileTexts.count)
        for line in captured.lines {
            #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z notice store\\nkeeper: .*/) != nil)
            let forbidden = line.unicodeScalars.filter {
                $0.value < 0x20 || $0.value == 0x7F
                    || [.control, .format, .lineSeparator, .paragraphSeparator]
                        .contains($0.properties.generalCategory)
            }
            #expect(forbidden.isEmpty, "raw \(forbidden.map { String($0.value, radix: 16) }) in \(line)")
        }
        #expect(!captured.all.contains("\ncritical"))
        #expect(!captured.all.contains("\rcritical"))
    }

    @Test func escapesAreReadableAndDistinct() {
        #expect(LogText.escaped("plain id 123_abc") == "plain id 123_abc")
        #expect(LogText.escaped("a\nb") == "a\\nb")
        #expect(LogText.escaped("a\\nb") == "a\\\\nb")
        #expect(LogText.escaped("\r\t") == "\\r\\t")
        #expect(LogText.escaped("\u{1B}[0m") == "\\u{1B}[0m")
        #expect(LogText.escaped("\u{202E}") == "\\u{202E}")
        #expect(LogText.escaped("\u{2028}") == "\\u{2028}")
        #expect(LogText.escaped("张三 josé") == "张三 josé")
        let escaped = Set(hostileTexts.map(LogText.escaped))
        #expect(escaped.count == hostileTexts.count)
    }

    @Test func aValueCannotPoseAsAnotherPair() {
        let captured = CapturedLines()
        captured.logger().info("delivered", metadata: ["playerId": "bob source=admin", "source": "client"])
        let line = String(captured.lines.first ?? "")
        #expect(line.contains(#"playerId="bob source=admin" source=client"#), "\(line)")
        #expect(line.contains("[StoreKeeperLoggingTests] delivered"), "\(line)")
    }

    @Test func quotesInsideAQuotedValueAreEscaped() {
        let captured = CapturedLines()
        captured.logger().info(
            "m", metadata: ["a": .string(#"x" forged="yes"#), "b": "2026-11-28T13:09:00.000Z", "c": ""])
        let line = String(captured.lines.first ?? "")
        #expect(line.contains(#"a="x\" forged=\"yes" b=2026-11-28T13:09:00.000Z c="" ["#), "\(line)")
    }
}
