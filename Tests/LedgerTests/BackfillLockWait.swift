import Testing

@testable import Ledger

/// Polls until a PostgreSQL backfill batch of `store`'s database waits for its `LOCK TABLE`
/// of `table` (a write in flight holds the table), so that a test releases the write only
/// then (how long it takes does not matter: nothing moves the write on until the test does).
func waitUntilTheBackfillWaits(_ store: PostgresLedgerStore, lockingTable table: String) async throws {
    let waiting = LedgerStatement(
        """
        SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database()
        AND wait_event_type = 'Lock' AND query LIKE ?
        """,
        [.text("LOCK TABLE \(table) %")])
    let deadline = ContinuousClock.now + .seconds(60)
    while try await store.read(.first(waiting) { try $0.requiredInteger("waiting") }) != 1 {
        guard ContinuousClock.now < deadline else {
            Issue.record("the backfill did not wait for the write in flight within 60 s")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
