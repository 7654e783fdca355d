import Foundation
import GRDB
import GRDBSQLite
import LedgerTestSupport
import Synchronization

@testable import Ledger

/// A SQLite ledger filled with history (``HistoryFill``, 3,000 purchases, seed 21) whose
/// connections record every statement they complete while ``recording(_:)`` runs: its SQL
/// with the values it was bound to, and the work SQLite did for it. The plan and work
/// checks of a filled ledger (``FilledLedgerPlanTests``) read it.
struct FilledSQLiteLedger {
    /// The purchases of the fill: enough that a walk of a ledger-wide range does thousands of
    /// steps more than any one small player's read, few enough that the fill takes a second.
    static let purchases = 3_000

    let pool: DatabasePool
    let store: SQLiteLedgerStore
    let summary: HistoryFillSummary
    /// The fill's present: its history lies in the three years before.
    let now: Date
    private let directory: URL
    private let recorder: StatementRecorder

    /// Fills a new ledger in a temporary directory.
    static func make() async throws -> FilledSQLiteLedger {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("filled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let recorder = StatementRecorder()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in recorder.install(on: db) }
        do {
            let pool = try DatabasePool(
                path: directory.appendingPathComponent("ledger.sqlite").path, configuration: configuration)
            let store = SQLiteLedgerStore(writer: pool)
            let now = Date()
            let summary = try await HistoryFill.fill(
                store, purchases: purchases, products: HistoryFillTests.products, random: SeededGenerator(seed: 21),
                now: now)
            return FilledSQLiteLedger(
                pool: pool, store: store, summary: summary, now: now, directory: directory, recorder: recorder)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Runs `body` and answers every statement the ledger's connections completed meanwhile,
    /// in the order they completed.
    func recording(_ body: () async throws -> Void) async throws -> [RecordedStatement] {
        recorder.start()
        do {
            try await body()
        } catch {
            _ = recorder.stop()
            throw error
        }
        return recorder.stop()
    }

    /// Closes the store and removes the ledger's files.
    func close() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await store.close()
    }
}

/// A statement a connection completed, and what SQLite counted while it ran it
/// (`sqlite3_stmt_status`).
struct RecordedStatement: Hashable, Sendable {
    /// The SQL with its parameters replaced by the values bound (`sqlite3_expanded_sql`).
    var sql: String
    /// Virtual machine instructions run (`SQLITE_STMTSTATUS_VM_STEP`): the statement's work,
    /// which grows with every index entry and row it visits, whatever its plan says.
    var steps: Int32
    /// Steps forward in a table or index walked from end to end (`SQLITE_STMTSTATUS_FULLSCAN_STEP`).
    var fullScanSteps: Int32
}

/// Records, through SQLite's own trace (`SQLITE_TRACE_PROFILE`, called when a statement
/// completes or is reset), every statement of the connections it is installed on.
///
/// Each completion reads the statement's counters and resets them, so a cached statement's
/// counts are those of its last run, not the sum of its runs; only while recording is on
/// are they kept.
private final class StatementRecorder: Sendable {
    private let isOn = Atomic<Bool>(false)
    private let recorded = Mutex<[RecordedStatement]>([])

    func start() {
        recorded.withLock { $0.removeAll() }
        isOn.store(true, ordering: .sequentiallyConsistent)
    }

    func stop() -> [RecordedStatement] {
        isOn.store(false, ordering: .sequentiallyConsistent)
        return recorded.withLock { $0 }
    }

    /// Installs the trace on a connection. SQLite holds the recorder unretained: the pool's
    /// configuration, whose `prepareDatabase` closure installs it, retains it for as long as
    /// the pool has connections.
    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(
            db.sqliteConnection, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, _ in
                guard let context, let statement else { return 0 }
                Unmanaged<StatementRecorder>.fromOpaque(context).takeUnretainedValue().completed(
                    OpaquePointer(statement))
                return 0
            }, context)
    }

    private func completed(_ statement: OpaquePointer) {
        let steps = sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1)
        let fullScanSteps = sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1)
        guard isOn.load(ordering: .sequentiallyConsistent), let expanded = sqlite3_expanded_sql(statement) else {
            return
        }
        defer { sqlite3_free(expanded) }
        let sql = String(cString: expanded)
        recorded.withLock {
            $0.append(RecordedStatement(sql: sql, steps: steps, fullScanSteps: fullScanSteps))
        }
    }
}
