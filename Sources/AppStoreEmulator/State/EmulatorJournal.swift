import Foundation

/// The emulator's state on disk: an append-only file of JSON lines, one
/// ``EmulatorRecord`` each, compacted to the current records at every start.
///
/// Each append is one `write` to the file, so a killed process loses nothing it
/// acknowledged; a torn last line (power loss mid-write) is skipped on load.
final class EmulatorJournal: Sendable {
    private let url: URL
    private let handle: FileHandle

    /// Opens the journal at `url`, compacted to `records`.
    private init(url: URL, records: [EmulatorRecord]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var contents = Data()
        for record in records {
            contents.append(try encoder.encode(record))
            contents.append(0x0A)
        }
        try contents.write(to: url, options: .atomic)
        self.url = url
        self.handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
    }

    /// Reads the records at `url` (none when the file does not exist) and opens the
    /// journal for appending, compacted by `compact`.
    static func open(
        at url: URL,
        compact: ([EmulatorRecord]) -> [EmulatorRecord]
    ) throws -> (journal: EmulatorJournal, records: [EmulatorRecord]) {
        var records: [EmulatorRecord] = []
        if let data = FileManager.default.contents(atPath: url.path) {
            let decoder = JSONDecoder()
            for line in data.split(separator: 0x0A) where !line.isEmpty {
                guard let record = try? decoder.decode(EmulatorRecord.self, from: line) else { continue }
                records.append(record)
            }
        } else {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let compacted = compact(records)
        return (try EmulatorJournal(url: url, records: compacted), compacted)
    }

    /// Appends `records` in one write.
    func append(_ records: [EmulatorRecord]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var data = Data()
        for record in records {
            data.append(try encoder.encode(record))
            data.append(0x0A)
        }
        try handle.write(contentsOf: data)
    }

    deinit {
        try? handle.close()
    }
}
