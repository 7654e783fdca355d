import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// ``FilledLedgerPlanTests/reversalCountReadsReversalsOnly()`` on PostgreSQL: the refund
/// signals' plan counts the listed players' reversals from
/// `history_events_reversals_by_player` (migration 21) and touches at most a few more
/// buffers (not one per few events) after the whale's history grew by events of another
/// type. (Without the index, PostgreSQL's statistics lead this ledger, which holds no
/// reversal, to `history_events_by_type` instead of the player's events, so SQLite's check
/// is the one with a canary.)
extension PostgresFilledLedgerPlanTests {
    @Test("PostgreSQL: the refund signals count a listed player's reversals without reading the player's other events")
    func reversalCountReadsReversalsOnly() async throws {
        let ledger = try await FilledPostgresLedger.make(settings: Self.settings + Self.measuring)
        let whale = ledger.summary.whale
        let sql = try FilledLedgerPlanTests.refundSignalsWithValues()
        let (before, after) = try await ledger.withStore { store in
            try await FilledLedgerPlanTests.signal(whale, on: store)
            let before = try await Self.plan(sql, on: ledger, containing: "WITH signalled")
            try await FilledLedgerPlanTests.addEvents(to: whale, on: store, at: ledger.now)
            return (before, try await Self.plan(sql, on: ledger, containing: "WITH signalled"))
        }
        #expect(before.contains(LedgerSchema.reversalsByPlayer.name), "\(before)")
        // Reading the 1,000 events added would touch a heap page per few dozen of them (and
        // their index pages): at least 20 more buffers. A few more can come from elsewhere
        // in the plan (31 -> 33 was seen under a full suite), so the bound is 10, not 0.
        #expect(Self.buffers(of: after) <= Self.buffers(of: before) + 10, "\(before)\n\(after)")
        #expect(Self.buffers(of: before) <= Self.bufferBound)
    }

    /// The plan `auto_explain` logged for `sql`, run once by `psql`: the one that contains
    /// `fragment` (the statement's text is part of its plan).
    static func plan(_ sql: String, on ledger: FilledPostgresLedger, containing fragment: String) async throws
        -> String
    {
        let start = try await PostgresCluster.shared.serverLog().end
        try await PostgresCluster.shared.execute(database: ledger.name, sql)
        let plans = Self.plans(in: try await PostgresCluster.shared.serverLog(from: start).text).filter {
            $0.contains(fragment)
        }
        try #require(plans.count == 1, "\(plans)")
        return plans[0]
    }
}
