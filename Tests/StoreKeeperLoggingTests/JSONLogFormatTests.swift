import Foundation
import Logging
import StoreKeeperLogging
import Synchronization
import Testing

/// `--log-format json`: every record one line of valid JSON, whatever its parts hold.
@Suite struct JSONLogFormatTests {
    /// Lines written by a JSON handler.
    private final class Lines: Sendable {
        private let text = Mutex("")
        var all: String { text.withLock { $0 } }
        var lines: [Substring] { all.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

        func logger(label: String = "storekeeper") -> Logger {
            var logger = Logger(label: label) { label in
                EscapingLogHandler(label: label, format: .json) { line in self.text.withLock { $0 += line } }
            }
            logger.logLevel = .trace
            return logger
        }
    }

    /// Line breaks of every kind, quotes and backslashes that would end a JSON string,
    /// terminal escapes, bidirectional overrides, NUL, a forged record, and text decoded
    /// from bytes that are not UTF-8 (a lone continuation byte, an overlong form, a
    /// surrogate's encoding, a truncated sequence).
    private static let hostile: [String] = [
        "1\n{\"timestamp\":\"2026-11-28T13:09:00.000Z\",\"level\":\"critical\",\"message\":\"FORGED\"}",
        "1\r\n\n\"},\"level\":\"critical",
        "a\u{85}b\u{2028}c\u{2029}d\u{0B}e\u{0C}f",
        "\u{1B}[2J\u{1B}[31mred\u{1B}[0m",
        "evil\u{202E}txt.exe\u{2066}\u{E0001}",
        "zero\u{200B}width\u{FEFF}",
        "back\\slash\\n\\\"",
        "\u{7F}\u{0}\u{1}\u{9F}",
        String(decoding: [0x80, 0x61, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF0, 0x9F, 0x98], as: UTF8.self),
        "张三 josé 🎮",
    ]

    @Test func everyRecordIsOneValidJSONLineWhateverItsPartsHold() throws {
        let captured = Lines()
        for text in Self.hostile {
            var logger = captured.logger(label: "store\nkeeper")
            logger[metadataKey: "context\n"] = .string(text)
            logger.error(
                "refused \(text)",
                metadata: [
                    "transactionId": .string(text), "list": .array([.string(text)]),
                    "nested": .dictionary([text: .stringConvertible(text)]), "key\r\(text)": "v",
                ], source: text)
        }
        let lines = captured.lines
        #expect(lines.count == Self.hostile.count)
        for (line, text) in zip(lines, Self.hostile) {
            let forbidden = line.unicodeScalars.filter {
                $0.value < 0x20 || $0.value == 0x7F
                    || [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
            }
            #expect(forbidden.isEmpty, "raw \(forbidden.map { String($0.value, radix: 16) }) in \(line)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
            #expect(object.keys.sorted() == ["label", "level", "message", "metadata", "source", "timestamp"])
            #expect(object["message"] as? String == "refused \(text)", "the text survives, decoded")
            #expect(object["level"] as? String == "error")
            #expect(object["label"] as? String == "store\nkeeper")
            #expect(object["source"] as? String == text)
            let timestamp = try #require(object["timestamp"] as? String)
            #expect(timestamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            let metadata = try #require(object["metadata"] as? [String: String], "every value a string")
            #expect(metadata["transactionId"] == text)
            #expect(metadata["context\n"] == text)
            #expect(metadata["key\r\(text)"] == "v")
        }
        #expect(!captured.all.contains("\n{\"timestamp\":\"2026-11-28T13:09:00.000Z\""))
    }

    @Test func quotingEscapesWhatJSONAndTerminalsNeed() {
        #expect(LogJSON.quoted("plain") == "\"plain\"")
        #expect(LogJSON.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(LogJSON.quoted("\n\r\t\u{0}\u{1B}\u{7F}") == #""\n\r\t\u0000\u001B\u007F""#)
        #expect(LogJSON.quoted("\u{2028}\u{202E}") == #""\u2028\u202E""#)
        #expect(LogJSON.quoted("\u{E0001}") == #""\uDB40\uDC01""#, "a surrogate pair above U+FFFF")
        #expect(LogJSON.quoted("张三 🎮") == "\"张三 🎮\"")
    }
}
