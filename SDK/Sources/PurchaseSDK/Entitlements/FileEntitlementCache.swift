import Foundation

/// The last entitlements the server answered, per player, in one JSON file (by default
/// `entitlements.json` beside the journal), so ``PurchasePipeline/entitlements(refresh:)``
/// can answer offline.
///
/// Every write replaces the file atomically (temporary file, fsync, rename, fsync of the
/// directory), so a crash leaves the old or the new cache, never a torn one. A file that
/// does not decode is read as empty: it is a cache, the server holds the truth, and the
/// next answer rewrites it. It keeps the ``maximumPlayers`` players fetched most recently.
public actor FileEntitlementCache {
    /// The cache file.
    public nonisolated let url: URL
    /// How many players' entitlements the file keeps (the most recently fetched).
    public nonisolated let maximumPlayers: Int
    private var entries: [String: CachedEntitlements]?

    /// A cache in the file at `url`; the directory is created on first write.
    public init(url: URL, maximumPlayers: Int = 8) {
        self.url = url
        self.maximumPlayers = max(1, maximumPlayers)
    }

    /// The cache file `entitlements.json` in the directory of the journal file at `journalURL`.
    public init(besideJournalAt journalURL: URL, maximumPlayers: Int = 8) {
        self.init(
            url: journalURL.deletingLastPathComponent().appendingPathComponent("entitlements.json"),
            maximumPlayers: maximumPlayers)
    }

    /// The last entitlements cached for `playerId`, if any.
    public func load(playerId: String) -> CachedEntitlements? {
        loaded()[playerId]
    }

    /// Keeps `cached` for its player, durably, before returning.
    public func store(_ cached: CachedEntitlements) throws {
        var updated = loaded()
        updated[cached.playerId] = cached
        let kept = updated.values.sorted { ($0.fetchedAt, $0.playerId) > ($1.fetchedAt, $1.playerId) }
            .prefix(maximumPlayers)
        updated = Dictionary(uniqueKeysWithValues: kept.map { ($0.playerId, $0) })
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.replace(url, with: try Self.encoder.encode(CacheFile(players: updated)))
        entries = updated
    }

    private func loaded() -> [String: CachedEntitlements] {
        if let entries { return entries }
        let read = (try? Data(contentsOf: url)).flatMap { try? Self.decoder.decode(CacheFile.self, from: $0) }
        let players = read?.players ?? [:]
        entries = players
        return players
    }

    /// The file's contents.
    private struct CacheFile: Codable {
        var players: [String: CachedEntitlements]
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()
}

/// One player's entitlements as the server last answered them.
public struct CachedEntitlements: Codable, Hashable, Sendable {
    /// Whose.
    public var playerId: String
    /// When the device received the answer.
    public var fetchedAt: Date
    /// The entitlements as answered.
    public var entitlements: [PlayerEntitlement]

    /// Creates an entry.
    public init(playerId: String, fetchedAt: Date, entitlements: [PlayerEntitlement]) {
        self.playerId = playerId
        self.fetchedAt = fetchedAt
        self.entitlements = entitlements
    }

    /// The snapshot it gives at `date`, each entitlement standing as at `date`.
    func snapshot(at date: Date, refreshFailure: String?) -> EntitlementSnapshot {
        EntitlementSnapshot(
            playerId: playerId, entitlements: entitlements.map { $0.standing(at: date) }, isCached: true,
            fetchedAt: fetchedAt, refreshFailure: refreshFailure)
    }
}
