import Foundation
import Ledger

/// One ledger benchmark's state: a migrated SQLite ledger on a temporary file, and the values
/// its iterations write, one each, made in setup so that an iteration times only its write.
final class LedgerBench<Value> {
    /// The temporary directory holding the database files.
    private let directory = FileManager.default.temporaryDirectory
        .appending(path: "storekeeper-benchmark-\(UUID().uuidString)")
    /// How many values setup makes: at least the benchmark's warmup plus maximum iterations.
    private let count: Int
    /// Makes one value, writing to the ledger what it needs beforehand.
    private let make: (SQLiteLedgerStore) async throws -> Value
    private var store: SQLiteLedgerStore?
    private var values: [Value] = []

    /// Values made by `make`, `count` of them.
    init(count: Int, make: @escaping (SQLiteLedgerStore) async throws -> Value) {
        self.count = count
        self.make = make
    }

    /// Opens and migrates the ledger, then makes the values (the benchmark's setup).
    func setUp() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try SQLiteLedgerStore(path: directory.appending(path: "ledger.sqlite").path)
        try await store.migrate()
        self.store = store
        values.reserveCapacity(count)
        for _ in 0..<count {
            values.append(try await make(store))
        }
    }

    /// The ledger and the next unused value.
    func next() throws -> (SQLiteLedgerStore, Value) {
        guard let store, let value = values.popLast() else { throw LedgerBenchError.exhausted }
        return (store, value)
    }

    /// Closes the ledger and removes its files (the benchmark's teardown).
    func tearDown() async throws {
        try await store?.close()
        store = nil
        values = []
        try FileManager.default.removeItem(at: directory)
    }
}

/// Why a ledger benchmark's iteration could not run as meant.
enum LedgerBenchError: Error {
    /// Setup made fewer values than the benchmark ran iterations.
    case exhausted
    /// The write answered something other than a first delivery.
    case notDelivered(String)
}
