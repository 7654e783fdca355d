import GRDB

extension StorageFault {
    /// The storage fault a SQLite result code is (by its primary code), or `nil` for an
    /// error of the operation itself (a constraint, a misuse, a corrupt file), which stays
    /// the `DatabaseError` it is.
    init?(sqlite code: ResultCode) {
        switch code.primaryResultCode {
        case .SQLITE_FULL: self = .full
        case .SQLITE_IOERR: self = .ioError
        case .SQLITE_READONLY, .SQLITE_PERM: self = .readOnly
        case .SQLITE_CANTOPEN: self = .cannotOpen
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        default: return nil
        }
    }
}

extension LedgerError {
    /// `error` as the SQLite ledger reports it: a storage fault (``StorageFault/init(sqlite:)``)
    /// as ``storageUnavailable(_:detail:)``, whose detail is SQLite's extended code and its
    /// generic text (`SQLite error 13 (database or disk is full)`: no path, no statement);
    /// any other error unchanged.
    static func classifyingSQLite(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError, let fault = StorageFault(sqlite: error.extendedResultCode) else {
            return error
        }
        return LedgerError.storageUnavailable(fault, detail: "SQLite error \(error.extendedResultCode)")
    }
}
