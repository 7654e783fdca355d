import Foundation
import GRDB

/// What `storekeeper backup` copied: a SQLite ledger, whole and consistent, at one moment.
public struct SQLiteLedgerBackup: Codable, Hashable, Sendable {
    /// The copy's path.
    public var path: String
    /// The newest schema version the copy holds (``LedgerStore/appliedMigrations()``).
    public var schemaVersion: Int64
    /// How many purchases (deliveries) the copy holds.
    public var purchases: Int
    /// The copy's size in bytes.
    public var bytes: Int64
}

/// Why a backup was not made; the destination is left as it was (nothing, when it did not exist).
public struct SQLiteLedgerBackupError: Error, CustomStringConvertible, Sendable {
    /// One line for the operator.
    public var description: String
}

extension SQLiteLedgerStore {
    /// Copies the ledger at `path` to `destination` with SQLite's online backup, while
    /// servers keep writing to it: the copy is the ledger as one read transaction saw it
    /// (every delivery committed before the backup began, and no half of any later one).
    /// The copy is written beside `destination`, checked with `PRAGMA integrity_check`,
    /// fsynced and then renamed into place, so `destination` never holds a partial copy.
    ///
    /// - Throws: ``SQLiteLedgerBackupError`` when `destination` already exists or is the
    ///   ledger itself, `path` holds no ledger, or the copy fails its check; SQLite's error
    ///   when the ledger cannot be read or the copy cannot be written.
    public static func backup(path: String, to destination: String) throws -> SQLiteLedgerBackup {
        let source = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        let target = URL(fileURLWithPath: destination).standardizedFileURL
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw SQLiteLedgerBackupError(description: "no ledger at \(source.path)")
        }
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw SQLiteLedgerBackupError(description: "\(target.path) already exists; name a new file")
        }
        guard target.resolvingSymlinksInPath() != source else {
            throw SQLiteLedgerBackupError(description: "the backup must not be the ledger itself")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Read-write, though it only reads: SQLite opens a WAL ledger read-only only when
        // its -shm file already exists (not after the last server stopped cleanly).
        let ledger = try DatabaseQueue(path: source.path, configuration: configuration)
        defer { try? ledger.close() }
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(UUID().uuidString.prefix(8))")
        do {
            let backup = try copy(ledger, to: partial)
            try FileManager.default.moveItem(at: partial, to: target)
            try fsync(directory: target.deletingLastPathComponent())
            return SQLiteLedgerBackup(
                path: target.path, schemaVersion: backup.schemaVersion, purchases: backup.purchases,
                bytes: backup.bytes)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: partial.path + suffix)
            }
            throw error
        }
    }

    /// Copies `ledger` into a new file at `file`, checks it and syncs it to disk.
    private static func copy(_ ledger: DatabaseQueue, to file: URL) throws -> (
        schemaVersion: Int64, purchases: Int, bytes: Int64
    ) {
        let copy = try DatabaseQueue(path: file.path)
        defer { try? copy.close() }  // closing twice is harmless; this one covers a throw
        try ledger.backup(to: copy)
        let (schemaVersion, purchases, check) = try copy.read { db in
            guard try db.tableExists("schema_migrations"), try db.tableExists("purchases") else {
                throw SQLiteLedgerBackupError(description: "the file is a SQLite database but not a ledger")
            }
            return (
                try Int64.fetchOne(db, sql: "SELECT max(version) FROM schema_migrations") ?? 0,
                try Int.fetchOne(db, sql: "SELECT count(*) FROM purchases") ?? 0,
                try String.fetchAll(db, sql: "PRAGMA integrity_check")
            )
        }
        guard check == ["ok"] else {
            throw SQLiteLedgerBackupError(
                description: "the copy failed SQLite's integrity check: \(check.prefix(3).joined(separator: "; "))")
        }
        // A backup of a WAL ledger is itself in WAL mode: fold its log into the file so the
        // one file is the whole copy.
        try copy.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
        }
        try copy.close()
        let handle = try FileHandle(forUpdating: file)
        try handle.synchronize()
        try handle.close()
        let bytes = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        return (schemaVersion, purchases, bytes)
    }

    /// Syncs `directory`'s entries (the rename) to disk.
    private static func fsync(directory: URL) throws {
        let descriptor = Foundation.open(directory.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        defer { _ = Foundation.close(descriptor) }
        _ = Foundation.fsync(descriptor)
    }
}
