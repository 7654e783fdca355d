/// Text made safe for one line of a log: whatever a value holds, it can neither end the
/// line it is in, start a line of its own, move a terminal's cursor nor reorder what a
/// reader sees.
public enum LogText {
    /// `text` with `\` doubled and every control character (C0, DEL, C1), line and
    /// paragraph separator and invisible formatting character (bidirectional controls,
    /// zero-width characters) written as an escape: `\n`, `\r`, `\t`, or `\u{XXXX}`. The
    /// result holds none of those characters, and different texts give different results.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if needsEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether `scalar` is written as an escape.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return scalar == "\\" }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
