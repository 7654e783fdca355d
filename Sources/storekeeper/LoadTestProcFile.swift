import Foundation

/// Text files of Linux's `/proc`, which report a size of 0 and are read to their end.
enum LoadTestProcFile {
    /// The whole text of the file at `path`; `nil` when it cannot be opened or read, or is
    /// not UTF-8.
    static func text(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() ?? Data() else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
