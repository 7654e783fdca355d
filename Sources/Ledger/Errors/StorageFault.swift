/// Why the ledger's database cannot serve an operation now, although nothing is wrong with
/// the operation: a fault of the disk or of the database server that operators fix (free
/// space, remount, restart), after which the same operation succeeds. Nothing was written.
public enum StorageFault: String, Hashable, Sendable, CaseIterable {
    /// The disk (or the database server's) is full: SQLite's `SQLITE_FULL`, PostgreSQL's
    /// `53100`.
    case full
    /// The disk failed a read or a write: SQLite's `SQLITE_IOERR`, PostgreSQL's `58030`.
    case ioError = "io_error"
    /// The database file (or server) takes no writes: SQLite's `SQLITE_READONLY` and
    /// `SQLITE_PERM`, PostgreSQL's `25006` (a standby).
    case readOnly = "read_only"
    /// The database file cannot be opened: SQLite's `SQLITE_CANTOPEN`.
    case cannotOpen = "cannot_open"
    /// Another process held the database's lock past the busy timeout: SQLite's
    /// `SQLITE_BUSY` and `SQLITE_LOCKED`.
    case busy
    /// The database server cannot be reached or went away: PostgreSQL's connection
    /// failures (no SQLSTATE, class `08`, `57P01` to `57P03`, class `53` but `53100`).
    case unreachable

    /// How long a client waits before retrying after a storage fault (`Retry-After` of the
    /// server's 503 `storage_unavailable` and of the console's error page): long enough not
    /// to hammer a ledger that is being fixed, short enough that a player waits little once
    /// it is.
    public static let retryAfterSeconds = 5

    /// What it is, for a log line (never a path or a statement).
    public var summary: String {
        switch self {
        case .full: "the disk is full"
        case .ioError: "the disk failed"
        case .readOnly: "the database takes no writes"
        case .cannotOpen: "the database cannot be opened"
        case .busy: "the database stayed locked"
        case .unreachable: "the database server cannot be reached"
        }
    }
}
