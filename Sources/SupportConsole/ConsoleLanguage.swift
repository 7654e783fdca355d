import Foundation
import Hummingbird

/// The console's languages.
enum ConsoleLanguage: String, Sendable, Hashable, CaseIterable {
    /// English.
    case english = "en"
    /// Simplified Chinese.
    case simplifiedChinese = "zh-Hans"

    /// The cookie that keeps the language chosen with the switch.
    static let cookieName = "sk_lang"

    /// The language of `request`: the `sk_lang` cookie, else the first language of
    /// `Accept-Language` the console speaks, else English.
    static func of(_ request: Request) -> ConsoleLanguage {
        if let chosen = request.cookies[cookieName].flatMap({ ConsoleLanguage(rawValue: $0.value) }) {
            return chosen
        }
        return preferred(acceptLanguage: request.headers[.acceptLanguage])
    }

    /// The first language of an `Accept-Language` value the console speaks, by quality:
    /// `zh`, `zh-CN`, `zh-SG`, `zh-Hans…` are Simplified Chinese, `en…` English; English
    /// when none is.
    static func preferred(acceptLanguage: String?) -> ConsoleLanguage {
        guard let acceptLanguage else { return .english }
        var ranges: [(tag: String, quality: Double, position: Int)] = []
        for (position, part) in acceptLanguage.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if quality > 0 { ranges.append((tag, quality, position)) }
        }
        ranges.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.position < $1.position }
        for range in ranges {
            if ["zh", "zh-cn", "zh-sg"].contains(range.tag) || range.tag.hasPrefix("zh-hans") {
                return .simplifiedChinese
            }
            if range.tag == "en" || range.tag.hasPrefix("en-") { return .english }
        }
        return .english
    }
}
