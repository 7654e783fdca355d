import Dispatch
import GRDB
import Synchronization

/// Commits the write operations of one ``SQLiteLedgerStore`` in groups: operations that
/// arrive while a commit is under way wait for it, then run one after the other in one
/// transaction, each in a savepoint of its own, and are committed (and synced to disk) once.
///
/// Each caller gets its own operation's answer only after the shared commit is durable, so
/// nothing is acknowledged that is not on disk: an operation that throws is rolled back to
/// its savepoint alone (the others go on) and its caller gets its error; a commit that fails,
/// or an error after which SQLite ended the whole transaction (I/O, full disk), fails every
/// operation of the group, none of which was acknowledged (retry). Operations
/// run in arrival order, each seeing the writes of those before it, as on SQLite's single
/// writer. Separate stores (processes) on one file are still serialized by SQLite's lock.
final class SQLiteGroupCommit: Sendable {
    /// One operation waiting for, or running in, a group.
    private struct Job: Sendable {
        /// Runs the operation inside the group's transaction; `true` when it threw.
        let run: @Sendable (Database) -> Bool
        /// Answers the caller once the group's transaction ended (with the commit's error,
        /// if it failed).
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct State {
        var pending: [Job] = []
        var committing = false
    }

    private let writer: any DatabaseWriter
    /// Where groups are committed, one at a time: a thread outside Swift's cooperative pool,
    /// which may block on the writer and the disk without holding up other tasks.
    private let committer = DispatchQueue(label: "storekeeper.ledger.group-commit")
    private let state = Mutex(State())

    /// Commits through `writer`'s single writer connection.
    init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// How many operations wait for the next group (tests force a group with it).
    var waitingCount: Int {
        state.withLock { $0.pending.count }
    }

    /// Runs `body` in the next group's transaction and returns its value once that
    /// transaction committed.
    func perform<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = Mutex<Result<Value, any Error>?>(nil)
            let job = Job(
                run: { db in
                    let result = Result { try body(db) }
                    outcome.withLock { $0 = result }
                    if case .failure = result { return true }
                    return false
                },
                finish: { commitError in
                    switch (outcome.withLock { $0 }, commitError) {
                    case (.failure(let error)?, _): continuation.resume(throwing: error)
                    case (.success(let value)?, nil): continuation.resume(returning: value)
                    case (_, let error?): continuation.resume(throwing: error)
                    case (nil, nil):
                        continuation.resume(throwing: LedgerError.database(message: "not run", sqlState: nil))
                    }
                })
            let startsCommitting = state.withLock { state in
                state.pending.append(job)
                guard !state.committing else { return false }
                state.committing = true
                return true
            }
            if startsCommitting {
                committer.async { self.commitPendingGroups() }
            }
        }
    }

    /// Commits groups until none is waiting.
    private func commitPendingGroups() {
        while true {
            let jobs = state.withLock { state in
                let jobs = state.pending
                state.pending = []
                if jobs.isEmpty { state.committing = false }
                return jobs
            }
            guard !jobs.isEmpty else { return }
            do {
                try writer.writeWithoutTransaction { db in try Self.run(jobs, in: db) }
                for job in jobs { job.finish(nil) }
            } catch {
                for job in jobs { job.finish(error) }
            }
        }
    }

    /// Runs `jobs` in one transaction and commits it. A job alone needs no savepoint: its
    /// failure rolls the transaction back.
    private static func run(_ jobs: [Job], in db: Database) throws {
        if jobs.count == 1, let job = jobs.first {
            try db.inLedgerTransaction(.immediate) {
                if job.run(db) { throw OperationFailed() }
            }
            return
        }
        try db.inLedgerTransaction(.immediate) {
            for job in jobs {
                try db.cachedStatement(sql: "SAVEPOINT ledger_operation").execute()
                if job.run(db) {
                    // SQLite may have ended the whole transaction on the failure (I/O error,
                    // full disk): then the group is lost, and every job fails with it.
                    guard db.isInsideTransaction else {
                        throw LedgerError.database(
                            message: "the database ended the transaction of a group of writes; retry", sqlState: nil)
                    }
                    try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT ledger_operation").execute()
                }
                try db.cachedStatement(sql: "RELEASE SAVEPOINT ledger_operation").execute()
            }
        }
    }

    /// The single job of a group threw (its own error is what its caller gets).
    private struct OperationFailed: Error {}
}
