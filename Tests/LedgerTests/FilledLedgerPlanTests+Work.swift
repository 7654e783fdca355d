import Foundation
import GRDB
import LedgerTestSupport
import Testing

@testable import Ledger

/// What the plan check (``noPathScansALargeTable()``) cannot see: a statement whose plan
/// finds its rows through an index (`SEARCH … USING INDEX`) but walks a range of it that
/// grows with the ledger. The server's paths run for a player of one purchase on a filled
/// ledger, and every statement about that player, their purchases or their orders is held
/// to the work SQLite counted for it (`SQLITE_STMTSTATUS_VM_STEP`): a read of the player's
/// own few rows stays far below ``stepBound``, a walk of a ledger-wide range goes far above
/// it.
extension FilledLedgerPlanTests {
    /// The most virtual machine steps a statement about one small player may take on the
    /// filled ledger (3,000 purchases, seed 21), chosen from what the paths did there
    /// (2026-11-30, `player-3`). The player's statements took at most 402 steps before
    /// migration 22 (a page of their timeline, newest first: their own events and those of
    /// their purchases merged and sorted; since, each part is read a page at a time from its
    /// index), most under 200. A walk of an index range costs about ten steps an entry: the
    /// timeline before migration 15 (``timelineBeforeMigration15``) walks the ledger's 2,480
    /// player-less events in 25,086 steps. 2,000 is five times the largest read of the
    /// player's own rows, and a walk of any range of 200 entries or more (one purchase in
    /// fifteen of the ledger's) exceeds it.
    ///
    /// Why a bound and not two fills compared (a statement doing four times the work on a
    /// ledger four times as large): the fill is seeded, so the steps are the same on every
    /// run, and the gap on either side of the bound is wide; a second, larger fill would
    /// quintuple the test's time to say the same.
    static let stepBound: Int32 = 2_000

    /// A player's timeline as it was read before migration 15 (commit 662a9f7 and before):
    /// the player-less events of the player's transactions found through
    /// `history_events_by_player`'s range of `NULL` player ids, every player-less event of
    /// the ledger (2 s a page at a million purchases). SQLite still plans it that way, and its
    /// plan says `SEARCH … USING INDEX`: the canary the work check must flag.
    static let timelineBeforeMigration15 = """
        SELECT \(HistoryEventTable.columns) FROM history_events WHERE player_id = ?
        UNION ALL
        SELECT \(HistoryEventTable.columns) FROM history_events
        WHERE player_id IS NULL
          AND transaction_id IN (SELECT transaction_id FROM purchases WHERE player_id = ?)
        ORDER BY created_at, id
        """

    @Test("no statement about one small player walks a range of the whole filled ledger")
    func smallPlayersStatementsStaySmall() async throws {
        let ledger = try await FilledSQLiteLedger.make()
        let player = try await FilledLedgerPaths.smallPlayer(on: ledger.store, summary: ledger.summary)
        let recorded = try await ledger.recording {
            try await FilledLedgerPaths.run(on: ledger.store, player: player, now: ledger.now)
        }
        let identifiers = try await FilledLedgerPaths.identifiers(of: player, on: ledger.store)
        let own = recorded.filter { statement in identifiers.contains { statement.sql.contains($0) } }
        #expect(Set(own.map(\.sql)).count > 30, "\(own.count) statements about \(player)")
        #expect(
            own.contains { $0.sql.contains("UNION ALL") && $0.sql.contains("FROM player_unowned_events") },
            "the player's timeline is among the statements checked")
        let walks = own.filter { $0.steps > Self.stepBound }
        #expect(walks.isEmpty, "statements about one small player that walk the ledger:\n\(Self.describe(walks))")

        let canary = try await ledger.recording {
            _ = try await ledger.pool.read { db in
                try Row.fetchAll(db, sql: Self.timelineBeforeMigration15, arguments: [player, player]).count
            }
        }
        let flagged = canary.filter { statement in
            identifiers.contains { statement.sql.contains($0) } && statement.steps > Self.stepBound
        }
        #expect(flagged.count == 1, "the timeline before migration 15 is flagged:\n\(Self.describe(canary))")
        let plan = try await ledger.pool.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + Self.timelineBeforeMigration15, arguments: [player, player]
            )
            .map { $0["detail"] as String }
        }
        #expect(
            !plan.contains(where: Self.scansLargeTable),
            "the plan check passes the old timeline (SEARCH … USING INDEX history_events_by_player): \(plan)")
        try await ledger.close()
    }

    /// Each statement's steps and SQL, for a failure's message.
    static func describe(_ statements: [RecordedStatement]) -> String {
        statements.map { "\($0.steps) steps (\($0.fullScanSteps) in full scans): \($0.sql.prefix(400))" }
            .joined(separator: "\n")
    }
}
