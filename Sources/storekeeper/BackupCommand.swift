import ArgumentParser
import Foundation
import Ledger

/// `storekeeper backup`: a consistent copy of a SQLite ledger, taken while servers serve.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a SQLite ledger, consistently, while the server keeps serving.",
        discussion: """
            Uses SQLite's online backup: the copy is the ledger as it stood at one moment, every delivery \
            committed before it began and none half-written. The copy is checked (PRAGMA integrity_check), \
            synced to disk and only then given its name; an existing file is never overwritten. Prints a JSON \
            line: path, schemaVersion, purchases, bytes. To restore, stop the server, put the copy at the \
            ledger's path (removing the old file's -wal and -shm) and start it. A PostgreSQL ledger is backed \
            up with pg_dump (docs/deploy.md, "Backups").
            """
    )

    @Option(
        help: """
            The ledger to copy: sqlite:PATH (default: $STOREKEEPER_DATABASE, else sqlite:./storekeeper.sqlite).
            """)
    var database: String?

    @Option(help: "The file to write: it must not exist yet.")
    var output: String

    func run() throws {
        let url = ServerOptions.databaseURL(option: database)
        let path: String
        switch try StoreURL(parsing: url) {
        case .sqlite(let file): path = file
        case .sqliteInMemory: throw ValidationError("an in-memory ledger has nothing to back up")
        case .postgres:
            throw ValidationError(
                "backup copies SQLite ledgers; back up PostgreSQL with pg_dump (docs/deploy.md, \"Backups\")")
        }
        let backup: SQLiteLedgerBackup
        do {
            backup = try SQLiteLedgerStore.backup(path: path, to: output)
        } catch let error as SQLiteLedgerBackupError {
            throw ValidationError(error.description)
        }
        printJSON([
            "path": backup.path, "schemaVersion": backup.schemaVersion, "purchases": backup.purchases,
            "bytes": backup.bytes,
        ])
    }
}
