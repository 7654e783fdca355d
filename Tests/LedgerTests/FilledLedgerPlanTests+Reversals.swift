import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// The refund signals' count of each listed player's reversals on a filled ledger: through
/// `history_events_reversals_by_player` (migration 21, ``LedgerSchema/reversalIndex``) it
/// reads the player's reversals only, so its work does not grow with the player's other
/// events; before, it read every event of the player (the whale's hundreds of thousands at
/// ten million purchases). Both plans say the count finds its rows through an index, so the
/// plan check cannot tell them apart: the work does.
extension FilledLedgerPlanTests {
    /// How many events of another type the checks add to a listed player.
    static let addedEvents = 1_000

    /// The refund signals' statement, with its values written in (2 refunds, 200 players),
    /// to run by hand on the schema before migration 21 (its index dropped in a transaction
    /// rolled back): its reversals counted among all of each listed player's events.
    static func refundSignalsWithValues() throws -> String {
        try withValues(LedgerSQL.refundSignals(minimumRefunds: 2, limit: 200), .sqlite)
    }

    /// Lists `player` among the refund signals (a negative balance of an item of its own,
    /// whatever their refunds) and checks that the store lists them.
    static func signal(_ player: String, on store: any LedgerStore) async throws {
        _ = try await store.grantManually(
            playerId: player, grants: ["plan_penalty": -1], reason: "plans", actor: "ann")
        #expect(try await store.refundSignals(minimumRefunds: 2, limit: 200).contains { $0.playerId == player })
    }

    /// Adds ``addedEvents`` events of another type than a reversal to `player`'s history.
    static func addEvents(to player: String, on store: any LedgerStore, at now: Date) async throws {
        for _ in 0..<addedEvents {
            _ = try await store.appendEvent(HistoryEvent(type: .notificationReceived, playerId: player, createdAt: now))
        }
    }

    @Test("the refund signals count a listed player's reversals without reading the player's other events")
    func reversalCountReadsReversalsOnly() async throws {
        let ledger = try await FilledSQLiteLedger.make()
        let whale = ledger.summary.whale
        try await Self.signal(whale, on: ledger.store)
        let nowBefore = try await Self.steps(on: ledger, withoutIndex: false)
        let oldBefore = try await Self.steps(on: ledger, withoutIndex: true)
        try await Self.addEvents(to: whale, on: ledger.store, at: ledger.now)
        let nowAfter = try await Self.steps(on: ledger, withoutIndex: false)
        let oldAfter = try await Self.steps(on: ledger, withoutIndex: true)
        #expect(nowAfter == nowBefore, "the count read none of the \(Self.addedEvents) events added")
        #expect(nowBefore <= Self.stepBound)
        #expect(
            oldAfter - oldBefore >= Int32(Self.addedEvents),
            "without migration 21's index the count read each event added (\(oldBefore) → \(oldAfter) steps)")
        try await ledger.close()
    }

    /// The steps SQLite counted for the refund signals' statement, run once, on the schema
    /// before migration 21 when `withoutIndex` (its index dropped in a transaction rolled
    /// back).
    private static func steps(on ledger: FilledSQLiteLedger, withoutIndex: Bool) async throws -> Int32 {
        try await steps(
            of: try refundSignalsWithValues(), on: ledger,
            withoutIndex: withoutIndex ? LedgerSchema.reversalsByPlayer.name : nil)
    }
}
