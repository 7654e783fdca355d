import Foundation
import GRDB
import LedgerTestSupport
import Testing

@testable import Ledger

/// The reads that partial indexes serve, on a filled ledger: the player page's
/// notifications, posting count and newest postings (migration 23,
/// ``LedgerSchema/playerPageIndexes``) each read the player's own notifications or manual
/// entries alone, and the overview's refund events (migration 25,
/// ``LedgerSchema/refundEventsIndex``) the first refunds from its date on. So their work does
/// not grow with the player's other events and entries, nor with later refunds. Before, each
/// walked every event or every ledger entry of the player (a whale's hundreds of thousands at
/// ten million purchases), or every refund of its days. Both plans find their rows through an
/// index, so the plan check cannot tell them apart: the work does.
extension FilledLedgerPlanTests {
    /// A read that a partial index serves, and the index.
    struct PartiallyIndexedRead: Sendable, CustomStringConvertible {
        var description: String
        var index: String
        /// The statement for a player at the fill's present, as the database runs it.
        var statement: @Sendable (_ player: String, _ now: Date, LedgerSQL.Dialect) -> LedgerStatement
    }

    static let partiallyIndexedReads: [PartiallyIndexedRead] = [
        PartiallyIndexedRead(description: "notifications", index: LedgerSchema.notificationsByPlayer.name) {
            player, _, dialect in
            LedgerSQL.timelineNewestFirst(
                playerId: player, beforeId: .max, limit: 50, types: HistoryEventType.notificationTypes,
                dialect: dialect)
        },
        PartiallyIndexedRead(description: "posting count", index: LedgerSchema.manualPostingsByPlayer.name) {
            player, _, _ in LedgerSQL.playerCounts(playerId: player)
        },
        PartiallyIndexedRead(description: "newest postings", index: LedgerSchema.manualPostingsByPlayer.name) {
            player, _, _ in LedgerSQL.newestManualEntries(playerId: player, limit: 200)
        },
    ]

    /// The overview's refund events from before the fill's first day: every refund of the
    /// fill is in range, the oldest 20 are read. PostgreSQL reads them from migration 25's
    /// index; SQLite has none (``refundEventsStopEarlyOnSQLite()``).
    static let refundEventsRead = PartiallyIndexedRead(
        description: "refund events", index: LedgerSchema.refundsByTime.name
    ) { _, now, _ in
        LedgerSQL.refundEvents(since: now.addingTimeInterval(-4 * 366 * 86_400), limit: 20)
    }

    /// `statement`'s SQL with its values written in, to run by hand on `dialect`'s database.
    static func withValues(_ statement: LedgerStatement, _ dialect: LedgerSQL.Dialect) throws -> String {
        var values = statement.arguments.map { argument -> String in
            switch argument {
            case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            case .integer(let integer): String(integer)
            case .timestamp(let date):
                dialect == .sqlite
                    ? String(date.ledgerMilliseconds) : "'\(ISO8601DateFormatter().string(from: date))'::timestamptz"
            case .null: "NULL"
            }
        }[...]
        try #require(statement.sql.filter { $0 == "?" }.count == values.count)
        return String(statement.sql.flatMap { $0 == "?" ? Array(values.popFirst() ?? "") : [$0] })
    }

    /// Adds ``addedEvents`` client events (events of the player's own that are no
    /// notification) and as many refunds (after every refund of the fill) through the store.
    static func addClientEventsAndRefunds(to player: String, on store: any LedgerStore, at now: Date) async throws {
        for type in [HistoryEventType.clientEvent, .refunded] {
            for _ in 0..<addedEvents {
                _ = try await store.appendEvent(HistoryEvent(type: type, playerId: player, createdAt: now))
            }
        }
    }

    /// A grant entry of one coin, to add by hand ``addedEvents`` times: the ledger's own
    /// writes of grants come with a purchase each.
    static let grantEntry = """
        INSERT INTO ledger_entries (player_id, item, amount, kind, balance_after, created_at)
        VALUES (?, 'coins', 1, 'grant', 0, ?)
        """

    @Test(
        "the player page's reads that migration 23's partial indexes serve read none of the player's other events and entries",
        arguments: partiallyIndexedReads)
    func partiallyIndexedReadsReadTheirRowsOnly(read: PartiallyIndexedRead) async throws {
        let ledger = try await FilledSQLiteLedger.make()
        let whale = ledger.summary.whale
        _ = try await ledger.store.grantManually(playerId: whale, grants: ["coins": 5], reason: "plans", actor: "ann")
        let sql = try Self.withValues(read.statement(whale, ledger.now, .sqlite), .sqlite)
        let plan = try await ledger.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("INDEX \(read.index) ") }, "\(plan)")
        let nowBefore = try await Self.steps(of: sql, on: ledger, withoutIndex: nil)
        let oldBefore = try await Self.steps(of: sql, on: ledger, withoutIndex: read.index)
        try await Self.addClientEventsAndRefunds(to: whale, on: ledger.store, at: ledger.now)
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

    @Test("SQLite reads the overview's first refund events and stops, however many refunds follow them")
    func refundEventsStopEarlyOnSQLite() async throws {
        let ledger = try await FilledSQLiteLedger.make()
        let sql = try Self.withValues(Self.refundEventsRead.statement("", ledger.now, .sqlite), .sqlite)
        let plan = try await ledger.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("INDEX history_events_by_type (type=? AND created_at>?)") }, "\(plan)")
        let before = try await Self.steps(of: sql, on: ledger, withoutIndex: nil)
        try await Self.addClientEventsAndRefunds(to: ledger.summary.whale, on: ledger.store, at: ledger.now)
        #expect(try await Self.steps(of: sql, on: ledger, withoutIndex: nil) == before)
        try await ledger.close()
    }

    /// The steps SQLite counted for `sql`, run once; without `index` when given (dropped in
    /// a transaction rolled back, and no longer named by the statement).
    static func steps(of sql: String, on ledger: FilledSQLiteLedger, withoutIndex index: String?)
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
