import Foundation
import Hummingbird

/// Console paths and query values.
enum ConsoleURL {
    /// The characters left as they are in a query value.
    private static let queryValueCharacters: CharacterSet = {
        var characters = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        characters.insert(charactersIn: "-._~/")
        return characters
    }()

    /// `text` percent-encoded for a query value (or a path segment: `/` aside, nothing is left raw).
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? ""
    }

    /// `text` percent-encoded as one path segment (`/` encoded too).
    static func pathSegment(_ text: String) -> String {
        var characters = queryValueCharacters
        characters.remove("/")
        return text.addingPercentEncoding(withAllowedCharacters: characters) ?? ""
    }

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
