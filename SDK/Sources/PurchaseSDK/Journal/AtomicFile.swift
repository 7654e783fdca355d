import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Durable file writes shared by the journal and the entitlement cache.
enum AtomicFile {
    /// Replaces the file at `url` with `data` so that after a crash at any instruction it
    /// holds either the old or the new contents: write `<name>.tmp` → fsync → rename over
    /// `url` → fsync the directory.
    static func replace(_ url: URL, with data: Data) throws {
        let temporary = temporaryURL(for: url).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw JournalError.io("open", temporary, errno) }
        do {
            try writeAll(data, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw JournalError.io("fsync", temporary, errno) }
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        guard rename(temporary, url.path) == 0 else { throw JournalError.io("rename", temporary, errno) }
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY)
        guard directory >= 0 else { throw JournalError.io("open", url.deletingLastPathComponent().path, errno) }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw JournalError.io("fsync", url.deletingLastPathComponent().path, errno) }
    }

    /// Where ``replace(_:with:)`` stages the new contents; a leftover one is a torn write.
    static func temporaryURL(for url: URL) -> URL {
        url.appendingPathExtension("tmp")
    }

    /// Writes all of `data` to `descriptor`, retrying interrupted and short writes.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw JournalError.io("write", path, errno)
                }
                offset += written
            }
        }
    }
}
