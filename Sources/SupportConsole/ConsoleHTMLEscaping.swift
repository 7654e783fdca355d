import Mustache

/// How the console's templates escape what they show: `&`, `<`, `>`, `"` and `'` become
/// `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;` (the entities of swift-mustache's own HTML
/// escaping), byte by byte over the UTF-8 text.
///
/// swift-mustache's HTML escaping compares whole characters, so a quote followed by a
/// combining mark (`"\u{301}`) is one character that is not `"` and went out unescaped, and
/// closed the attribute it stood in. Each byte of `&<>"'` is one of those characters wherever
/// it stands in UTF-8 (no byte of a multi-byte sequence is below 0x80), so this escapes every
/// one. It also spares the page a dictionary lookup per character.
struct ConsoleHTMLEscaping: MustacheContentType {
    /// The name templates give it: `{{%CONTENT_TYPE:StoreKeeperHTML}}`.
    static let name = "StoreKeeperHTML"

    /// The pragma that makes a template escape this way, as a line of its own (a standalone
    /// tag: it adds no text, and the template's first line stays standalone where it was);
    /// `ConsoleRenderer` puts it first in every template it registers.
    static let pragmaLine = "{{%CONTENT_TYPE:\(name)}}\n"

    /// Makes the content type known to swift-mustache's parser (its registry is global; a
    /// second registration replaces the first with the same value).
    static func register() {
        MustacheContentTypes.register(ConsoleHTMLEscaping(), named: name)
    }

    func escapeText(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: Self.needsEscaping) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count + 16)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }
}
