import Foundation
import GRDB
import Ledger
import LedgerTestSupport
import PostgresNIO

/// Two ledger instances on one fresh, migrated database (like two server processes): the
/// first pauses at `point` as `interleaving` says, the second is the intruder.
func withInterleavedStores(
    _ kind: StoreKind,
    at point: LedgerPausePoint,
    _ body: (_ paused: any LedgerStore, _ intruder: any LedgerStore, Interleaving) async throws -> Void
) async throws {
    let database = try await kind.makeDatabase()
    defer { database.remove() }
    var stores: [any LedgerStore] = []
    do {
        let interleaving: Interleaving
        let intruder: any LedgerStore
        switch kind {
        case .sqlite:
            interleaving = Interleaving(at: point, databaseHasWaiter: { false })
            // The intruder's busy handler runs while SQLite makes it wait for the paused
            // transaction's write lock.
            var configuration = Configuration()
            configuration.busyMode = .callback { [interleaving] tries in
                interleaving.noteDatabaseWait()
                usleep(1_000)
                return tries < 30_000
            }
            let path = String(database.url.dropFirst("sqlite:".count))
            let paused = try SQLiteLedgerStore(path: path, hook: interleaving.hook)
            stores.append(paused)
            try await paused.migrate()
            intruder = SQLiteLedgerStore(writer: try DatabasePool(path: path, configuration: configuration))
        case .postgres:
            let probe = try PostgresLedgerStore(url: database.url)
            stores.append(probe)
            // Only this test's database: the cluster's other tests wait on locks of their own.
            interleaving = Interleaving(at: point) {
                let waiting = try? await probe.client.query(
                    """
                    SELECT count(*) AS waiting FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid
                    WHERE NOT l.granted AND a.datname = current_database()
                    """
                ).collect().first?.decode(Int64.self)
                return (waiting ?? 0) > 0
            }
            let paused = try PostgresLedgerStore(url: database.url, hook: interleaving.hook)
            stores.append(paused)
            try await paused.migrate()
            intruder = try PostgresLedgerStore(url: database.url)
        }
        stores.append(intruder)
        try await body(stores[stores.count - 2], intruder, interleaving)
        for store in stores { try await store.close() }
    } catch {
        for store in stores { try? await store.close() }
        throw error
    }
}
