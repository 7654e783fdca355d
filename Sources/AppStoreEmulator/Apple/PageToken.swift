import Crypto
import Foundation

/// The opaque `revision` and `paginationToken` the emulator issues: a digest of the query a
/// listing answers, then where the next page starts, `<digest>.<position>` (the digest alone
/// before the first item).
///
/// A token is valid only with the query it was issued for, as Apple's: the same operation,
/// customer and filters. What a position means is the listing's business (a sort key, an
/// index); the token only carries it.
struct PageToken: Equatable {
    /// The digest of the query: 16 hexadecimal digits.
    var query: String
    /// Where the next page starts; `nil` before the first item.
    var position: String?

    /// A token for a query, given as its parts (operation, customer, filters), at `position`.
    init(query parts: [String], position: String? = nil) {
        let digest = SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8))
        self.query = digest.prefix(8).map { String(format: "%02x", $0) }.joined()
        self.position = position
    }

    /// The token as text.
    var text: String { position.map { "\(query).\($0)" } ?? query }

    /// `text` read as a token of `start`'s query; `nil` when it is not one (another query's
    /// token, or no token at all).
    init?(_ text: String, of start: PageToken) {
        guard text == start.query || text.hasPrefix(start.query + ".") else { return nil }
        self.query = start.query
        self.position = text == start.query ? nil : String(text.dropFirst(start.query.count + 1))
    }
}
