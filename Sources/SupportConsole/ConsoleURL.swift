import Foundation
import Hummingbird

/// Console paths and query values.
enum ConsoleURL {
    /// `text` percent-encoded for a query value (or a path segment: `/` aside, nothing is left raw).
    static func queryValue(_ text: String) -> String {
        percentEncoded(text, keepingSlash: true)
    }

    /// `text` percent-encoded as one path segment (`/` encoded too).
    static func pathSegment(_ text: String) -> String {
        percentEncoded(text, keepingSlash: false)
    }

    /// Every UTF-8 byte of `text` as `%XX` (upper-case hex) but the ASCII letters and digits,
    /// `-._~`, and `/` when `keepingSlash`: what Foundation's `addingPercentEncoding` gives
    /// for that set, without its `NSString` round trip (a player page encodes hundreds of
    /// links).
    private static func percentEncoded(_ text: String, keepingSlash: Bool) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                encoded.append(byte)
            default:
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The request's path and query, as sent.
    static func location(of request: Request) -> String {
        request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
    }

    /// `candidate` when it is a path of the console (`/console/…`, no `//`, no backslash,
    /// no control characters), else `/console/`: where a sign-in or the language switch may
    /// send the browser back to.
    static func localPath(_ candidate: String?) -> String {
        guard let candidate, candidate.hasPrefix("/console/"), !candidate.contains("//"),
            !candidate.contains("\\"), candidate.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
            candidate.utf8.count <= 2_048
        else { return "/console/" }
        return candidate
    }

    /// `path` with `notice=<code>` added to its query.
    static func adding(notice: String?, to path: String) -> String {
        guard let notice else { return path }
        return path + (path.contains("?") ? "&" : "?") + "notice=" + queryValue(notice)
    }
}
