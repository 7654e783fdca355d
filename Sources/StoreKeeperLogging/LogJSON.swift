import Logging

/// A log record as one line of JSON, for log collectors:
/// `{"timestamp":"2026-11-28T13:09:00.123Z","level":"error","label":"storekeeper","source":"PurchaseServer","message":"…","metadata":{"key":"value"}}`.
///
/// Every metadata value is a string (an array or a dictionary as the text format writes
/// it), keys in order. Strings are escaped by ``quoted(_:)``: besides what JSON requires
/// (`"`, `\` and C0 controls), DEL, C1 controls, line and paragraph separators and invisible
/// formatting characters are written `\uXXXX`, so the line holds nothing that ends it,
/// moves a terminal's cursor or reorders what a reader sees, and it stays valid JSON.
public enum LogJSON {
    /// The line for one record, ending in `\n`.
    static func line(
        timestamp: String, level: Logger.Level, label: String, source: String, message: String,
        metadata: Logger.Metadata
    ) -> String {
        var line = "{\"timestamp\":" + quoted(timestamp)
        line += ",\"level\":" + quoted(level.rawValue)
        line += ",\"label\":" + quoted(label)
        line += ",\"source\":" + quoted(source)
        line += ",\"message\":" + quoted(message)
        line += ",\"metadata\":{"
        line += metadata.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + quoted(string($0.value)) }
            .joined(separator: ",")
        line += "}}\n"
        return line
    }

    /// A metadata value as a string: a string as it is, an array or a dictionary as the
    /// text format writes it.
    private static func string(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array, .dictionary: EscapingLogHandler.render(value)
        }
    }

    /// `text` as a JSON string, in quotes, holding no character that needs an escape
    /// (see ``LogJSON``).
    public static func quoted(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if needsEscape(scalar) {
                    appendEscape(scalar, to: &result)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `\uXXXX`, as a UTF-16 surrogate pair above U+FFFF.
    private static func appendEscape(_ scalar: Unicode.Scalar, to result: inout String) {
        for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16, uppercase: true)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        if scalar.value < 0x20 || scalar.value == 0x7F { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
