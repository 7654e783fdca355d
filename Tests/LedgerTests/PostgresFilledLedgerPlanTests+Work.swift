import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// The work check (``FilledLedgerPlanTests/smallPlayersStatementsStaySmall()``) on
/// PostgreSQL: the paths run for a player of one purchase on the filled, analyzed ledger,
/// `auto_explain` runs every statement as `EXPLAIN (ANALYZE, BUFFERS)` would, and each plan
/// about that player (its conditions name the player, one of their purchases or orders) is
/// held to the buffers it touched.
extension PostgresFilledLedgerPlanTests {
    /// The settings that make `auto_explain` count each plan's buffers as it runs.
    static let measuring = [
        "auto_explain.log_analyze = on", "auto_explain.log_buffers = on", "auto_explain.log_timing = off",
    ]

    /// The most buffers (shared hits and reads) a statement about one small player may touch
    /// on the filled ledger (3,000 purchases, seed 21), chosen from what the paths did there
    /// (2026-11-30, `player-3`). The player's plans touch at most 20 buffers (the order's
    /// fulfilment; a page of their timeline 15). The walk of the ledger's 2,480 player-less
    /// events (``walkOfPlayerlessEvents``) touches 412: a bitmap scan, one visit to each heap
    /// page that holds them; an index scan would visit a page for each of the 2,480. 200 is
    /// ten times the largest read of the player's own rows and half the walk. (The bound
    /// cannot be SQLite's: a buffer holds many rows, a step is one instruction.)
    static let bufferBound = 200

    @Test("no statement about one small player walks a range of the whole filled PostgreSQL ledger")
    func smallPlayersStatementsStaySmall() async throws {
        let ledger = try await FilledPostgresLedger.make(settings: Self.settings + Self.measuring)
        let player = try await ledger.withStore { store in
            try await FilledLedgerPaths.smallPlayer(on: store, summary: ledger.summary)
        }
        let start = try await PostgresCluster.shared.serverLog().end
        let (log, identifiers) = try await ledger.withStore { store in
            try await FilledLedgerPaths.run(on: store, player: player, now: ledger.now)
            let log = try await PostgresCluster.shared.serverLog(from: start)
            return (log, try await FilledLedgerPaths.identifiers(of: player, on: store))
        }
        let own = Self.plans(in: log.text).filter { plan in identifiers.contains { plan.contains($0) } }
        #expect(own.count > 30, "\(own.count) plans about \(player)")
        #expect(
            own.contains { $0.contains("UNION ALL") && $0.contains("FROM player_unowned_events") },
            "the player's timeline is among the plans checked")
        let walks = own.filter { Self.buffers(of: $0) > Self.bufferBound }
        #expect(walks.isEmpty, "plans about one small player that walk the ledger:\n\(Self.describe(walks))")

        // The canary: the timeline before migration 15, on the schema before it, run as SQLite
        // ran it (``walkOfPlayerlessEvents``).
        let literal = "'\(player.replacingOccurrences(of: "'", with: "''"))'"
        try await PostgresCluster.shared.execute(
            database: ledger.name,
            """
            BEGIN; DROP INDEX history_events_unowned;
            \(Self.walkOfPlayerlessEvents.replacingOccurrences(of: "?", with: literal)); ROLLBACK
            """)
        let canaryPlans = Self.plans(in: try await PostgresCluster.shared.serverLog(from: log.end).text)
        let flagged = canaryPlans.filter { plan in
            plan.contains(literal) && Self.buffers(of: plan) > Self.bufferBound
        }
        #expect(flagged.count == 1, "the walk of the player-less events is flagged:\n\(Self.describe(canaryPlans))")
        #expect(
            flagged.allSatisfy { Self.wholeTableWalks(in: $0).isEmpty },
            "the plan check passes the walk: its index has a condition (player_id IS NULL)")
    }

    /// ``FilledLedgerPlanTests/timelineBeforeMigration15`` as SQLite ran it: every event of
    /// `history_events_by_player`'s range of `NULL` player ids read, each kept if its
    /// transaction is one of the player's. PostgreSQL plans the old form itself as a join
    /// from the player's purchases (under 30 buffers here, no walk, even without
    /// `history_events_unowned`); `IS TRUE` keeps the subquery a filter of each event, so that
    /// PostgreSQL walks the range as SQLite did.
    static let walkOfPlayerlessEvents = FilledLedgerPlanTests.timelineBeforeMigration15.replacingOccurrences(
        of: "AND transaction_id IN (SELECT transaction_id FROM purchases WHERE player_id = ?)",
        with: "AND (transaction_id IN (SELECT transaction_id FROM purchases WHERE player_id = ?)) IS TRUE")

    /// The buffers a plan touched: its top node's shared hits and reads (they include its
    /// children's); 0 when it touched none.
    static func buffers(of plan: String) -> Int {
        guard let line = plan.split(separator: "\n").first(where: { $0.contains("Buffers:") }) else { return 0 }
        return ["hit=", "read="].reduce(0) { total, key in
            guard let range = line.range(of: key) else { return total }
            return total + (Int(line[range.upperBound...].prefix { $0.isNumber }) ?? 0)
        }
    }

    /// Each plan's buffers and text, for a failure's message.
    static func describe(_ plans: [String]) -> String {
        plans.map { "\(Self.buffers(of: $0)) buffers: \($0.prefix(600))" }.joined(separator: "\n")
    }
}
