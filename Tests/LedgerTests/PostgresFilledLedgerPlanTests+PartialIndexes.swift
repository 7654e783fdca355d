import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// ``FilledLedgerPlanTests/partiallyIndexedReadsReadTheirRowsOnly(read:)`` on PostgreSQL: each
/// read's plan goes through its partial index, and touches at most a few more buffers (not
/// one per few rows) after the whale's history grew by events and entries of other kinds and
/// by later refunds.
extension PostgresFilledLedgerPlanTests {
    @Test(
        "PostgreSQL: the reads that partial indexes serve read none of the player's other events and entries, nor later refunds"
    )
    func partiallyIndexedReadsReadTheirRowsOnly() async throws {
        let ledger = try await FilledPostgresLedger.make(settings: Self.settings + Self.measuring)
        let whale = ledger.summary.whale
        let reads = FilledLedgerPlanTests.partiallyIndexedReads + [FilledLedgerPlanTests.refundEventsRead]
        let statements = try reads.map {
            try FilledLedgerPlanTests.withValues($0.statement(whale, ledger.now, .postgres), .postgres)
        }
        let (before, after) = try await ledger.withStore { store in
            _ = try await store.grantManually(playerId: whale, grants: ["coins": 5], reason: "plans", actor: "ann")
            var before: [String] = []
            for sql in statements {
                before.append(try await Self.plan(sql, on: ledger, containing: String(sql.prefix { $0 != "\n" })))
            }
            try await FilledLedgerPlanTests.addClientEventsAndRefunds(to: whale, on: store, at: ledger.now)
            try await PostgresCluster.shared.execute(
                database: ledger.name,
                """
                INSERT INTO ledger_entries (player_id, item, amount, kind, balance_after, created_at)
                SELECT '\(whale)', 'coins', 1, 'grant', 0, now() FROM generate_series(1, \(FilledLedgerPlanTests.addedEvents))
                """)
            // The rows added share heap pages with the rows read: the pages are visible to
            // all again, so an index-only read fetches no more of them than before.
            try await PostgresCluster.shared.execute(database: ledger.name, "VACUUM")
            var after: [String] = []
            for sql in statements {
                after.append(try await Self.plan(sql, on: ledger, containing: String(sql.prefix { $0 != "\n" })))
            }
            return (before, after)
        }
        for (read, (before, after)) in zip(reads, zip(before, after)) {
            #expect(before.contains(read.index), "\(read): \(before)")
            // Reading the 1,000 rows added would touch a heap page per few dozen of them (and
            // their index pages): at least 20 more buffers.
            #expect(Self.buffers(of: after) <= Self.buffers(of: before) + 10, "\(read): \(before)\n\(after)")
            #expect(Self.buffers(of: before) <= Self.bufferBound, "\(read): \(before)")
        }
    }
}
