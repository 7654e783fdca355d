/// Text placed in server-made SVG (and HTML): every outside string goes through
/// ``escape(_:)`` before it is written into markup.
enum SVGText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, safe in element content
    /// and in quoted attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A coordinate or length with at most one decimal, as SVG reads it.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
