import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``PurchaseJournal`` in one file, one checksummed line per record.
///
/// Every write replaces the file atomically: the whole journal goes to a temporary file
/// that is fsynced, renamed over the journal, and the directory fsynced, so after a crash
/// at any instruction the file holds either the old or the new journal. Lines that fail
/// their checksum are reported by ``load()`` and appended to `<name>.damaged` next to the
/// journal before the next write leaves them out, so nothing is lost silently. Each
/// record's line is encoded once, when the record is written, and kept for the rewrites
/// that follow. Closed orders beyond the ``retention`` are left out of the next write.
public actor FilePurchaseJournal: PurchaseJournal {
    /// The journal file.
    public nonisolated let url: URL
    /// Which closed orders the journal keeps.
    public nonisolated let retention: JournalRetention
    private var entries: [String: Entry] = [:]
    private var isLoaded = false

    /// A record and its journal line, newline included.
    private struct Entry {
        var record: PurchaseRecord
        var line: Data
    }

    /// A journal at `url` keeping the closed orders `retention` allows; the directory is
    /// created when missing.
    public init(url: URL, retention: JournalRetention = .standard) {
        self.url = url
        self.retention = retention
    }

    /// Where damaged lines are kept for support.
    public nonisolated var damagedEntriesURL: URL {
        url.appendingPathExtension("damaged")
    }

    public func load() throws -> JournalContents {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: temporaryURL)
        let data = (try? Data(contentsOf: url)) ?? Data()
        var loaded: [String: Entry] = [:]
        var damage: [JournalDamage] = []
        let text = String(decoding: data, as: UTF8.self)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty {
            switch JournalEntryCoding.entry(from: line, number: index + 1) {
            case .record(let record, let line):
                loaded[record.id] = Entry(record: record, line: Data((line + "\n").utf8))
            case .damaged(let problem): damage.append(problem)
            }
        }
        if !damage.isEmpty { try keep(damage) }
        entries = loaded
        isLoaded = true
        return JournalContents(records: Self.ordered(loaded.values).map(\.record), damage: damage)
    }

    public func write(_ record: PurchaseRecord) throws {
        if !isLoaded { _ = try load() }
        var updated = entries
        updated[record.id] = Entry(record: record, line: try JournalEntryCoding.line(for: record))
        for id in retention.idsToForget(in: updated.values.map(\.record)) { updated[id] = nil }
        var data = Data()
        for entry in Self.ordered(updated.values) { data += entry.line }
        try AtomicFile.replace(url, with: data)
        entries = updated
    }

    private var temporaryURL: URL { AtomicFile.temporaryURL(for: url) }

    private static func ordered(_ entries: some Sequence<Entry>) -> [Entry] {
        entries.sorted { ($0.record.createdAt, $0.record.id) < ($1.record.createdAt, $1.record.id) }
    }

    /// Appends damaged lines to the side file, durably.
    private func keep(_ damage: [JournalDamage]) throws {
        let text = damage.map { "line \($0.line) \($0.reason): \($0.text)\n" }.joined()
        let descriptor = open(damagedEntriesURL.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw JournalError.io("open", damagedEntriesURL.path, errno) }
        defer { close(descriptor) }
        try AtomicFile.writeAll(Data(text.utf8), to: descriptor, path: damagedEntriesURL.path)
        guard fsync(descriptor) == 0 else { throw JournalError.io("fsync", damagedEntriesURL.path, errno) }
    }
}
