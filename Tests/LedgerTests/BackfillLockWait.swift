import Testing

@testable import Ledger

/// Polls until a PostgreSQL backfill batch of `store`'s database waits for its `LOCK TABLE`
/// of `table` (a write in flight holds the table), so that a test releases the write only
/// then (how long it takes does not matter: nothing moves the write on until the test does).
func waitUntilTheBackfillWaits(_ store: PostgresLedgerStore, lockingTable table: String) async throws {
    try await waitUntilOneWaits(store, forLock: "relation", queryLike: "LOCK TABLE \(table) %", what: "the backfill")
}

/// Polls until exactly one session of `store`'s database waits for a lock of the kind
/// `lock` (`pg_stat_activity.wait_event`: `relation`, `advisory`, …), running a statement
/// `LIKE queryLike`; `what` names it in the failure, recorded after 60 s.
func waitUntilOneWaits(
    _ store: PostgresLedgerStore, forLock lock: String, queryLike: String = "%", what: String
) async throws {
    let waiting = LedgerStatement(
        """
        SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database()
        AND wait_event_type = 'Lock' AND wait_event = ? AND query LIKE ?
        """,
        [.text(lock), .text(queryLike)])
    let deadline = ContinuousClock.now + .seconds(60)
    while try await store.read(.first(waiting) { try $0.requiredInteger("waiting") }) != 1 {
        guard ContinuousClock.now < deadline else {
            Issue.record("\(what) did not wait for the write in flight within 60 s")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Runs `backfill` on a connection of `store` while `write` is held open, uncommitted, in a
/// transaction on another: the write commits only once the batch waits for its lock of
/// `table` (``run(_:behind:on:releasedWhen:)``).
func runBackfill(
    _ backfill: LedgerMigration.Backfill, behind write: LedgerStatement, on store: PostgresLedgerStore,
    lockingTable table: String
) async throws {
    try await run(
        { try await store.onConnection { connection in try await store.run(backfill, on: connection) } },
        behind: write, on: store, releasedWhen: { try await waitUntilTheBackfillWaits(store, lockingTable: table) })
}

/// Runs `waiter` while `write` is held open, uncommitted, in a transaction on a connection of
/// `store`: the write commits once `waits` returns (it polls until the waiter waits for a
/// lock the write holds), and this returns the waiter's value when both are done (a failure
/// commits the write and waits for the waiter first).
func run<Value: Sendable>(
    _ waiter: @escaping @Sendable () async throws -> Value, behind write: LedgerStatement,
    on store: PostgresLedgerStore, releasedWhen waits: () async throws -> Void
) async throws -> Value {
    let (reached, reachedSignal) = AsyncStream<Void>.makeStream()
    let (release, releaseSignal) = AsyncStream<Void>.makeStream()
    let inFlight = Task {
        try await store.transaction { connection in
            try await connection.run(write, logger: store.logger)
            reachedSignal.yield()
            for await _ in release { return }
        }
    }
    var reachedPoint = reached.makeAsyncIterator()
    _ = await reachedPoint.next()
    let waiting = Task { try await waiter() }
    do {
        try await waits()
        releaseSignal.yield()
        try await inFlight.value
        return try await waiting.value
    } catch {
        releaseSignal.yield()
        _ = try? await inFlight.value
        _ = try? await waiting.value
        throw error
    }
}
