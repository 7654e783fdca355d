import Foundation
import GRDB
import LedgerTestSupport
import Testing

@testable import Ledger

/// The player page's notifications, posting count and newest postings on a filled ledger:
/// through migration 23's partial indexes (``LedgerSchema/playerPageIndexes``) each reads
/// the player's own notifications or manual entries alone, so its work does not grow with
/// the player's other events and entries. Before, each walked every event or every ledger
/// entry of the player (a whale's hundreds of thousands at ten million purchases). Both
/// plans find their rows through an index, so the plan check cannot tell them apart: the
/// work does.
extension FilledLedgerPlanTests {
    /// A statement of the player page that migration 23 serves, and the index it reads.
    struct PlayerPageRead: Sendable, CustomStringConvertible {
        var description: String
        var index: String
        /// The statement for a player, as the database runs it.
        var statement: @Sendable (String, LedgerSQL.Dialect) -> LedgerStatement
    }

    static let playerPageReads = [
        PlayerPageRead(description: "notifications", index: LedgerSchema.notificationsByPlayer.name) {
            LedgerSQL.timelineNewestFirst(
                playerId: $0, beforeId: .max, limit: 50, types: HistoryEventType.notificationTypes, dialect: $1)
        },
        PlayerPageRead(description: "posting count", index: LedgerSchema.manualPostingsByPlayer.name) {
            player, _ in LedgerSQL.playerCounts(playerId: player)
        },
        PlayerPageRead(description: "newest postings", index: LedgerSchema.manualPostingsByPlayer.name) {
            player, _ in LedgerSQL.newestManualEntries(playerId: player, limit: 200)
        },
    ]

    /// `statement`'s SQL with its values written in, to run by hand.
    static func withValues(_ statement: LedgerStatement) throws -> String {
        var values = statement.arguments.map { argument -> String in
            switch argument {
            case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            case .integer(let integer): String(integer)
            case .timestamp, .null: "NULL"
            }
        }[...]
        try #require(statement.sql.filter { $0 == "?" }.count == values.count)
        return String(statement.sql.flatMap { $0 == "?" ? Array(values.popFirst() ?? "") : [$0] })
    }

    /// Adds ``addedEvents`` client events (events of the player's own that are no
    /// notification) through the store.
    static func addClientEvents(to player: String, on store: any LedgerStore, at now: Date) async throws {
        for _ in 0..<addedEvents {
            _ = try await store.appendEvent(HistoryEvent(type: .clientEvent, playerId: player, createdAt: now))
        }
    }

    /// A grant entry of one coin, to add by hand ``addedEvents`` times: the ledger's own
    /// writes of grants come with a purchase each.
    static let grantEntry = """
        INSERT INTO ledger_entries (player_id, item, amount, kind, balance_after, created_at)
        VALUES (?, 'coins', 1, 'grant', 0, ?)
        """

    @Test(
        "the player page's notifications and manual postings read none of the player's other events and entries",
        arguments: playerPageReads)
    func playerPageReadsItsOwnRowsOnly(read: PlayerPageRead) async throws {
        let ledger = try await FilledSQLiteLedger.make()
        let whale = ledger.summary.whale
        _ = try await ledger.store.grantManually(playerId: whale, grants: ["coins": 5], reason: "plans", actor: "ann")
        let sql = try Self.withValues(read.statement(whale, .sqlite))
        let plan = try await ledger.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("INDEX \(read.index) ") }, "\(plan)")
        let nowBefore = try await Self.steps(of: sql, on: ledger, withoutIndex: nil)
        let oldBefore = try await Self.steps(of: sql, on: ledger, withoutIndex: read.index)
        try await Self.addClientEvents(to: whale, on: ledger.store, at: ledger.now)
        try await ledger.pool.write { db in
            for _ in 0..<Self.addedEvents {
                try db.execute(sql: Self.grantEntry, arguments: [whale, ledger.now.ledgerMilliseconds])
            }
        }
        let nowAfter = try await Self.steps(of: sql, on: ledger, withoutIndex: nil)
        let oldAfter = try await Self.steps(of: sql, on: ledger, withoutIndex: read.index)
        #expect(nowAfter == nowBefore, "the read visited none of the events and entries added")
        #expect(nowBefore <= Self.stepBound)
        #expect(
            oldAfter - oldBefore >= Int32(Self.addedEvents),
            "without migration 23's index the read visited each row added (\(oldBefore) → \(oldAfter) steps)")
        try await ledger.close()
    }

    /// The steps SQLite counted for `sql`, run once; without `index` when given (dropped in
    /// a transaction rolled back, and no longer named by the statement).
    private static func steps(of sql: String, on ledger: FilledSQLiteLedger, withoutIndex index: String?)
        async throws -> Int32
    {
        let run = index.map { sql.replacingOccurrences(of: " INDEXED BY \($0)", with: "") } ?? sql
        let recorded = try await ledger.recording {
            try await ledger.pool.writeWithoutTransaction { db in
                try db.inTransaction {
                    if let index { try db.execute(sql: "DROP INDEX \(index)") }
                    _ = try Row.fetchAll(db, sql: run)
                    return .rollback
                }
            }
        }
        let runs = recorded.filter { $0.sql == run }
        try #require(runs.count == 1, "\(describe(recorded))")
        return runs[0].steps
    }
}
