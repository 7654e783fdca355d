import Foundation

/// The emulator's state on disk: an append-only file of JSON lines, one
/// ``EmulatorRecord`` each, compacted to the current records at every start.
///
/// Each append is one `write` to the file, so a killed process loses nothing it
/// acknowledged; a torn last line (power loss mid-write) is skipped on load.
final class EmulatorJournal: Sendable {
    private let handle: FileHandle

    /// Opens the journal at `url`, compacted to `records`.
    private init(url: URL, records: [EmulatorRecord]) throws {
        try Self.lines(records).write(to: url, options: .atomic)
        self.handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
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
            for line in data.split(separator: 0x0A) where !line.isEmpty {
                guard let record = try? decoder.decode(EmulatorRecord.self, from: line) else { continue }
                records.append(record)
            }
        }
        return try EmulatorJournal(url: url, records: compact(records))
    }

    /// Appends `records` in one write.
    func append(_ records: [EmulatorRecord]) throws {
        try handle.write(contentsOf: Self.lines(records))
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

    deinit {
        try? handle.close()
    }
}
