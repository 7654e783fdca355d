import AppStoreSigning
import Foundation

/// The Play side's durable state on disk, in the data directory: a snapshot
/// (`play-state.json`, one JSON document of every purchase, subscription, voided record and
/// notification not yet delivered; not the access tokens) and a log (`play-state.log`) of
/// the changes since, one JSON line each (``PlayStateChange``).
///
/// Each change appends what it changed to the log and fsyncs it before the change is
/// made (``append(_:)``), so a change costs what it changed, however much the emulator
/// holds: a snapshot per change grew with every purchase, and a long simulation spent most
/// of its time rewriting it. At start the log is folded into a new snapshot
/// (``AtomicFile``: a temporary file, fsync, rename) with the next generation, and then
/// emptied; lines of an older generation, which a crash between those two steps leaves,
/// are already in the snapshot and skipped. A torn last line (a crash mid-append) is
/// skipped; any other line that does not decode stops the start. Dates are milliseconds
/// since the epoch, as Google's API reports them.
struct PlayStateFile: Sendable {
    /// The snapshot's file name in the data directory.
    static let fileName = "play-state.json"
    /// The log's file name in the data directory.
    static let logFileName = "play-state.log"
    /// The snapshot format this version writes; it reads 1 (a snapshot per change, no log)
    /// too. A file of another version is refused.
    static let version = 2

    /// The snapshot; `nil` keeps the state in memory only.
    let url: URL?
    /// The log beside the snapshot.
    let logURL: URL?
    /// The snapshot's generation, which the log's lines carry.
    let generation: Int

    /// Reads the state saved in `dataDirectory` (empty when there is none, or no directory),
    /// writes it as a new snapshot of the next generation and empties the log.
    ///
    /// - Throws: ``PlayEmulatorError`` 500 `corrupt_state` for a snapshot or a log line
    ///   (not the last) that cannot be read or decoded: the emulator refuses to start
    ///   rather than overwrite it with less; the error of writing the new snapshot or
    ///   emptying the log.
    static func load(dataDirectory: URL?) throws -> (PlayStateFile, PlayState) {
        guard let dataDirectory else { return (PlayStateFile(url: nil, logURL: nil, generation: 0), PlayState()) }
        let url = dataDirectory.appendingPathComponent(fileName)
        let logURL = dataDirectory.appendingPathComponent(logFileName)
        var (generation, state) = try loadSnapshot(url)
        for change in try loadLog(logURL) where change.generation == generation {
            state.replay(change)
        }
        state.markSaved()
        let file = PlayStateFile(url: url, logURL: logURL, generation: generation + 1)
        try AtomicFile.replace(url, with: file.snapshot(of: state))
        try Data().write(to: logURL)
        return (file, state)
    }

    /// Appends `change` to the log and fsyncs it; does nothing without a data directory or
    /// when the change is empty.
    ///
    /// - Throws: The error of opening, writing or syncing the log; what was written of the
    ///   line is cut off again, so the log holds only whole changes that were made.
    func append(_ change: PlayStateChange) throws {
        guard let logURL, !change.isEmpty else { return }
        var line = try Self.encoder.encode(change)
        line.append(0x0A)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        let end = try log.seekToEnd()
        do {
            try log.write(contentsOf: line)
            try log.synchronize()
        } catch {
            try? log.truncate(atOffset: end)
            throw error
        }
    }

    /// The snapshot document of `state`, of this file's generation.
    private func snapshot(of state: PlayState) throws -> Data {
        try Self.encoder.encode(
            Snapshot(
                version: Self.version, generation: generation,
                purchases: state.purchases.values.sorted { $0.purchaseToken < $1.purchaseToken },
                subscriptions: state.subscriptions.values.sorted { $0.purchaseToken < $1.purchaseToken },
                voided: state.voided, outbox: state.outbox))
    }

    /// The snapshot at `url` and its generation: empty, generation 0, when there is none.
    private static func loadSnapshot(_ url: URL) throws -> (Int, PlayState) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (0, PlayState()) }
        do {
            let snapshot = try decoder.decode(Snapshot.self, from: Data(contentsOf: url))
            guard (1...version).contains(snapshot.version) else {
                throw PlayEmulatorError("corrupt_state", "format version \(snapshot.version), not 1 to \(version)")
            }
            return (
                snapshot.generation ?? 0,
                PlayState(
                    purchases: Dictionary(snapshot.purchases.map { ($0.purchaseToken, $0) }) { first, _ in first },
                    subscriptions: Dictionary((snapshot.subscriptions ?? []).map { ($0.purchaseToken, $0) }) {
                        first, _ in first
                    }, voided: snapshot.voided, outbox: snapshot.outbox ?? [])
            )
        } catch {
            throw refusal(url, error)
        }
    }

    /// The changes in the log at `url` (none when there is no log), a torn last line left out.
    private static func loadLog(_ url: URL) throws -> [PlayStateChange] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        var changes: [PlayStateChange] = []
        for (index, line) in lines.enumerated() where !line.isEmpty {
            do {
                changes.append(try decoder.decode(PlayStateChange.self, from: line))
            } catch {
                // Only the last line can be torn by a crash mid-append.
                guard index == lines.count - 1 else { throw refusal(url, "line \(index + 1): \(error)") }
            }
        }
        return changes
    }

    private static func refusal(_ url: URL, _ error: Any) -> PlayEmulatorError {
        PlayEmulatorError(
            "corrupt_state",
            "\(url.path) is not the Play side's saved state (\(error)); the emulator will not start and overwrite it",
            status: 500)
    }

    /// The snapshot's JSON document.
    private struct Snapshot: Codable {
        var version: Int
        /// Absent in version 1 files (no log): 0.
        var generation: Int?
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
