import Foundation
import Ledger

/// The players a search that found nothing suggests: ids that contain the query, ASCII
/// case ignored (the ledger's ``SupportReads/players(resembling:limit:)``), then ids
/// written in another script whose romanization contains it (`zhangsan` for `张三`, `emile`
/// for `Émile`).
extension SupportPages {
    /// How many ids outside ASCII a search romanizes at most (the first in byte order).
    static var romanizedPlayersScanned: Int { 5_000 }

    /// Up to `limit` players resembling `query`, the ledger's matches first.
    func closestPlayers(to query: String, limit: Int) async throws -> [String] {
        var closest = try await store.players(resembling: query, limit: limit)
        let folded = Self.romanized(query)
        guard closest.count < limit, !folded.isEmpty, query.unicodeScalars.allSatisfy(\.isASCII) else {
            return closest
        }
        let candidates = try await store.players(outsideASCIILimit: Self.romanizedPlayersScanned)
        let matches = candidates.compactMap { player -> (rank: Int, player: String)? in
            let name = Self.romanized(player)
            guard !closest.contains(player), let range = name.range(of: folded) else { return nil }
            return (name == folded ? 0 : range.lowerBound == name.startIndex ? 1 : 2, player)
        }
        closest += matches.sorted { ($0.rank, $0.player.count) < ($1.rank, $1.player.count) }
            .prefix(limit - closest.count).map(\.player)
        return closest
    }

    /// `text` in Latin letters without marks, spaces or case: `张三` → `zhangsan`,
    /// `Émile` → `emile`; empty when it has no letters or digits.
    static func romanized(_ text: String) -> String {
        let latin = text.applyingTransform(.toLatin, reverse: false) ?? text
        let plain = latin.applyingTransform(.stripDiacritics, reverse: false) ?? latin
        return String(
            plain.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}
