import Foundation

/// Whole-file replacement that a crash cannot tear: shared by the emulators' state files
/// (the App Store side's compacted journal, the Play side's snapshot). It lives here, the
/// lowest module both emulators depend on, beside the other helpers they share.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url` (`url` with `temporaryExtension`),
    /// fsyncs it, renames it over `url` and fsyncs the directory, so `url` holds either the
    /// old or the new content after a crash.
    ///
    /// - Throws: The error of creating, writing, syncing or renaming the file (a full disk
    ///   among them); `url` then still holds its old content.
    public static func replace(_ url: URL, with data: Data, temporaryExtension: String = "tmp") throws {
        let temporary = url.appendingPathExtension(temporaryExtension)
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        let file = try FileHandle(forWritingTo: temporary)
        do {
            try file.write(contentsOf: data)
            try file.synchronize()
            try file.close()
        } catch {
            try? file.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let directory = try FileHandle(forReadingFrom: url.deletingLastPathComponent())
        defer { try? directory.close() }
        try directory.synchronize()
    }
}
