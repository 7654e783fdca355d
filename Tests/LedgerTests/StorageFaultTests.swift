import Foundation
import GRDB
import Testing

@testable import Ledger

/// The faults of the ledger's storage, as operators meet them (a full disk, a file that
/// takes no writes), reported as ``LedgerError/storageUnavailable(_:detail:)`` (which the
/// server answers 503 `storage_unavailable`), with nothing half-written, and gone once the
/// fault is: the same delivery then succeeds, exactly once.
struct StorageFaultTests {
    /// A migrated file ledger in a directory of its own.
    private static func fileStore() async throws -> (SQLiteLedgerStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        try await store.migrate()
        return (store, directory)
    }

    @Test func aFullDiskFailsWritesAsAStorageFaultAndTheSameDeliverySucceedsOnceAfterwards() async throws {
        let (store, directory) = try await Self.fileStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await store.deliver(Fixture.delivery())
        // SQLite's max_page_count on the writer: past it, a write fails with SQLITE_FULL,
        // as on a disk with no room left.
        try await store.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 1)")
        }
        var delivered = 1
        var failed: (Delivery, any Error)?
        for _ in 0..<2_000 {
            let delivery = Fixture.delivery()
            do {
                _ = try await store.deliver(delivery)
                delivered += 1
            } catch {
                failed = (delivery, error)
                break
            }
        }
        let (delivery, error) = try #require(failed, "the page limit was reached")
        let ledgerError = try #require(error as? LedgerError, "\(error)")
        #expect(ledgerError.storageFault == .full)
        #expect(!"\(ledgerError)".contains(directory.path), "no path: \(ledgerError)")
        #expect(!"\(ledgerError)".contains("INSERT"), "no statement: \(ledgerError)")
        // Nothing of the failed delivery was written; what was acknowledged is there.
        #expect(try await store.purchase(store: .appStore, transactionId: delivery.transactionId) == nil)
        #expect(try await store.wallet(playerId: "player-1") == ["coins": Int64(100 * delivered)])
        // Reads go on.
        #expect(try await store.checkpoint("anything") == nil)

        // Room again: the same delivery (the SDK retries it) succeeds, once.
        try await store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA max_page_count = 1073741823")
        }
        #expect(try await store.deliver(delivery).isFirstDelivery)
        #expect(try await store.deliver(delivery).isFirstDelivery == false)
        #expect(try await store.wallet(playerId: "player-1") == ["coins": Int64(100 * (delivered + 1))])
        try await store.close()
    }

    @Test func aLedgerThatTakesNoWritesIsAStorageFault() async throws {
        let (store, directory) = try await Self.fileStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        // As a read-only file would (the tests may run as root, whom file modes do not stop).
        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = ON") }
        do {
            _ = try await store.createOrder(Fixture.order())
            Issue.record("a write succeeded on a ledger that takes none")
        } catch let error as LedgerError {
            #expect(error.storageFault == .readOnly, "\(error)")
        }
        do {
            try await store.setCheckpoint("probe", value: "1")
            Issue.record("a write succeeded on a ledger that takes none")
        } catch let error as LedgerError {
            #expect(error.storageFault == .readOnly, "\(error)")
        }
        #expect(try await store.checkpoint("probe") == nil)
        try await store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = OFF") }
        try await store.setCheckpoint("probe", value: "1")
        #expect(try await store.checkpoint("probe") == "1")
        try await store.close()
    }

    @Test func sqliteCodesAreClassifiedByTheirPrimaryCode() {
        let cases: [(ResultCode, StorageFault?)] = [
            (.SQLITE_FULL, .full), (.SQLITE_IOERR, .ioError), (.SQLITE_IOERR_WRITE, .ioError),
            (.SQLITE_IOERR_FSYNC, .ioError), (.SQLITE_READONLY, .readOnly), (.SQLITE_READONLY_DBMOVED, .readOnly),
            (.SQLITE_PERM, .readOnly), (.SQLITE_CANTOPEN, .cannotOpen), (.SQLITE_BUSY, .busy),
            (.SQLITE_CONSTRAINT, nil), (.SQLITE_CONSTRAINT_UNIQUE, nil), (.SQLITE_CORRUPT, nil),
            (.SQLITE_MISUSE, nil), (.SQLITE_ERROR, nil),
        ]
        for (code, fault) in cases {
            let error = DatabaseError(
                resultCode: code, message: "unable to open /var/lib/storekeeper/ledger.sqlite",
                sql: "INSERT INTO purchases VALUES (?)")
            let classified = LedgerError.classifyingSQLite(error)
            #expect((classified as? LedgerError)?.storageFault == fault, "\(code)")
            if fault == nil {
                #expect(classified is DatabaseError, "\(code) stays SQLite's error")
            } else {
                let text = "\(classified)"
                #expect(!text.contains("/var/lib") && !text.contains("INSERT"), "\(text)")
            }
        }
    }

    @Test func postgresStatesAreClassified() {
        let cases: [(String?, StorageFault?)] = [
            ("53100", .full), ("58030", .ioError), ("25006", .readOnly), ("08006", .unreachable),
            ("08001", .unreachable), ("57P01", .unreachable), ("57P03", .unreachable), ("53300", .unreachable),
            ("23505", nil), ("40001", nil), ("40P01", nil), ("42P01", nil), (nil, nil),
        ]
        for (state, fault) in cases {
            #expect(StorageFault(sqlState: state) == fault, "\(state ?? "nil")")
        }
    }
}
