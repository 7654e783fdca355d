import AppStoreSigning
import Foundation

/// The Play side's durable state on disk: `play-state.json` in the data directory, one JSON
/// snapshot of every purchase, voided record and notification not yet delivered (not the
/// access tokens).
///
/// Each change rewrites the whole file (``AtomicFile/replace(_:with:temporaryExtension:)``:
/// a temporary file, fsync, rename): the state stays small in the emulator's use (a test
/// or a development session's purchases), so a snapshot per change costs little and keeps
/// the format one plain document. Dates are milliseconds since the epoch, as Google's API
/// reports them.
struct PlayStateFile: Sendable {
    /// The file name in the data directory.
    static let fileName = "play-state.json"
    /// The format version the file carries; a file with another is refused.
    static let version = 1

    /// The file; `nil` keeps the state in memory only.
    let url: URL?

    /// The file in `dataDirectory`; none without one.
    init(dataDirectory: URL?) {
        url = dataDirectory?.appendingPathComponent(Self.fileName)
    }

    /// The saved state: empty when there is no file (or no data directory).
    ///
    /// - Throws: ``PlayEmulatorError`` 500 `corrupt_state` for a file that cannot be read
    ///   or decoded; the emulator refuses to start rather than overwrite it with less.
    func load() throws -> PlayState {
        guard let url, FileManager.default.fileExists(atPath: url.path) else { return PlayState() }
        do {
            let snapshot = try Self.decoder.decode(Snapshot.self, from: Data(contentsOf: url))
            guard snapshot.version == Self.version else {
                throw PlayEmulatorError("corrupt_state", "format version \(snapshot.version), not \(Self.version)")
            }
            return PlayState(
                purchases: Dictionary(snapshot.purchases.map { ($0.purchaseToken, $0) }) { first, _ in first },
                subscriptions: Dictionary((snapshot.subscriptions ?? []).map { ($0.purchaseToken, $0) }) { first, _ in
                    first
                }, voided: snapshot.voided, outbox: snapshot.outbox ?? [])
        } catch {
            throw PlayEmulatorError(
                "corrupt_state",
                "\(url.path) is not the Play side's saved state (\(error)); "
                    + "the emulator will not start and overwrite it",
                status: 500)
        }
    }

    /// Replaces the file with `state`'s purchases, voided records and notifications; does nothing without
    /// a data directory.
    ///
    /// - Throws: The error of encoding or writing the file; the old file stays as it was.
    func save(_ state: PlayState) throws {
        guard let url else { return }
        let purchases = state.purchases.values.sorted { $0.purchaseToken < $1.purchaseToken }
        let data = try Self.encoder.encode(
            Snapshot(
                version: Self.version, purchases: purchases,
                subscriptions: state.subscriptions.values.sorted { $0.purchaseToken < $1.purchaseToken },
                voided: state.voided, outbox: state.outbox))
        try AtomicFile.replace(url, with: data)
    }

    /// The file's JSON document.
    private struct Snapshot: Codable {
        var version: Int
        /// By purchase token.
        var purchases: [PlayPurchase]
        /// By purchase token; absent in files written before the Play side sold subscriptions.
        var subscriptions: [PlaySubscription]?
        /// In the order they were recorded.
        var voided: [PlayVoidedRecord]
        /// The notifications not yet delivered, oldest first; absent in files written before
        /// the Play side pushed notifications.
        var outbox: [PlayOutgoingNotification]?
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }
}
