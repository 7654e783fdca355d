import AppStoreSigning
import Foundation

/// The emulator's state on disk: an append-only file of JSON lines, one
/// ``EmulatorRecord`` each, compacted to the current records at every start.
///
/// Each append is one `write` to the file, so a killed process loses nothing appended; the
/// emulator's answers and notifications wait until an `fsync` started after that write has
/// returned (``waitUntilDurable(_:)``), so a power cut does not lose a charge it reported
/// either (Apple does not forget a charge). The `fsync`s run off the emulator's actor, one
/// at a time, each covering every append written before it (``JournalSyncer``): the
/// emulator keeps serving while the disk syncs. A torn last line (power loss mid-write) is
/// skipped on load, and any other line that does not decode stops the load
/// (``EmulatorError`` `corrupt_journal`) instead of being compacted away. The compacted
/// file written at start replaces the old one only once it is on disk.
final class EmulatorJournal: Sendable {
    private let handle: FileHandle
    private let syncer: JournalSyncer

    /// Opens the journal at `url`, compacted to `records`.
    private init(url: URL, records: [EmulatorRecord]) throws {
        try AtomicFile.replace(url, with: Self.lines(records), temporaryExtension: "compacting")
        self.handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        self.syncer = JournalSyncer(handle: handle, path: url.path)
    }

    /// Reads the records at `url` (none when the file does not exist), hands them to
    /// `compact`, and opens the journal for appending, rewritten to what `compact` returns.
    static func open(
        at url: URL,
        compact: ([EmulatorRecord]) -> [EmulatorRecord]
    ) throws -> EmulatorJournal {
        var records: [EmulatorRecord] = []
        if let data = FileManager.default.contents(atPath: url.path) {
            let decoder = JSONDecoder()
            let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where !line.isEmpty {
                do {
                    records.append(try decoder.decode(EmulatorRecord.self, from: line))
                } catch {
                    // Only the last line can be torn by a crash mid-write; any other line
                    // that does not decode is refused rather than dropped by the compaction.
                    guard index == lines.count - 1 else {
                        throw EmulatorError(
                            "corrupt_journal",
                            "line \(index + 1) of \(url.path) is not an emulator record (\(error)); "
                                + "the emulator will not start and rewrite the journal without it",
                            status: 500)
                    }
                }
            }
        }
        return try EmulatorJournal(url: url, records: compact(records))
    }

    /// Appends `records` in one write, to be made durable by ``waitUntilDurable(_:)``.
    /// Appends are written in the order they are made.
    func append(_ records: [EmulatorRecord]) throws {
        try handle.write(contentsOf: Self.lines(records))
        syncer.noteAppended()
    }

    /// The number of the last append.
    var lastAppend: UInt64 { syncer.lastAppend }

    /// Returns once append `append`, and every one before it, is on disk.
    func waitUntilDurable(_ append: UInt64) async throws {
        try await syncer.waitUntilDurable(append)
    }

    /// `records` as JSON lines.
    private static func lines(_ records: [EmulatorRecord]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = Data()
        for record in records {
            data.append(try encoder.encode(record))
            data.append(0x0A)
        }
        return data
    }
}
