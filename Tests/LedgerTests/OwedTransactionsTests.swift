import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger

/// `owed_transactions` (migration 17, ``LedgerSchema/owedTransactions``): the owed queue and
/// its count read the table the triggers keep, and answer exactly what the statements before
/// it answered (kept here as the reference), over a ledger migrated with reports already in
/// it and after more reports and deliveries of both stores.
struct OwedTransactionsTests {
    /// One row of the owed queue as the statements give it, before any decoding.
    struct OwedRow: Equatable, CustomStringConvertible {
        var transactionId: String
        var store: String
        var firstSeenAt: Date
        var lastSeenAt: Date
        var attempts: Int64
        var firstDetail: String
        var latestDetail: String

        var description: String {
            "\(store)/\(transactionId) \(firstSeenAt.timeIntervalSince1970)…\(lastSeenAt.timeIntervalSince1970) "
                + "×\(attempts) \(firstDetail) \(latestDetail)"
        }
    }

    /// The owed queue before migration 17: every `awaiting_report` event grouped, each
    /// transaction checked for a purchase.
    private static let owedBefore = """
        SELECT owed.transaction_id, owed.store, owed.first_seen_at, owed.last_seen_at, owed.attempts,
               first_event.detail AS first_detail, latest_event.detail AS latest_detail
        FROM (
            SELECT transaction_id, \(LedgerSQL.storeOfEvent) AS store, MIN(created_at) AS first_seen_at,
                   MAX(created_at) AS last_seen_at, COUNT(*) AS attempts, MIN(id) AS first_id,
                   MAX(id) AS latest_id
            FROM history_events
            WHERE type = ? AND transaction_id IS NOT NULL
              AND NOT EXISTS (
                  SELECT 1 FROM purchases WHERE purchases.transaction_id = history_events.transaction_id
                  AND purchases.store = \(LedgerSQL.storeOfEvent))
            GROUP BY transaction_id, \(LedgerSQL.storeOfEvent)
            HAVING MIN(created_at) <= ?
        ) owed
        JOIN history_events first_event ON first_event.id = owed.first_id
        JOIN history_events latest_event ON latest_event.id = owed.latest_id
        ORDER BY owed.first_seen_at, owed.transaction_id, owed.store
        LIMIT ?
        """

    /// The owed count before migration 17.
    private static let countBefore = """
        SELECT COUNT(*) AS owed FROM (
            SELECT transaction_id FROM history_events
            WHERE type = ? AND transaction_id IS NOT NULL
              AND NOT EXISTS (
                  SELECT 1 FROM purchases WHERE purchases.transaction_id = history_events.transaction_id
                  AND purchases.store = \(LedgerSQL.storeOfEvent))
            GROUP BY transaction_id, \(LedgerSQL.storeOfEvent)
            HAVING MIN(created_at) <= ?
        ) owed
        """

    private static let start = Date(timeIntervalSince1970: 1_800_000_000.25)

    @Test(
        "the owed queue and its count answer as the statements before owed_transactions, before and after migration 17",
        arguments: StoreKind.allCases)
    func answersAsBefore(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        let store = try #require(try database.open() as? any SQLLedgerStore)
        do {
            try await store.migrate(through: 16)
            var random = SeededGenerator(seed: 17)
            let first = try await Self.reportsAndDeliveries(on: store, series: 1, random: &random)
            try await store.migrate(through: 17)
            #expect(try await store.appliedMigrations().last == 17)
            try await Self.expectSameAnswers(store, owed: first)
            let second = try await Self.reportsAndDeliveries(on: store, series: 2, random: &random)
            try await Self.expectSameAnswers(store, owed: first.union(second))
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    @Test(
        "a row whose transaction a purchase holds (left by two writes at once) is neither listed nor counted",
        arguments: StoreKind.allCases)
    func rowOfADeliveredTransactionIsLeftOut(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let store = try #require(store as? any SQLLedgerStore)
            let (owed, delivered) = (Fixture.transactionId(), Fixture.transactionId())
            for id in [owed, delivered] {
                try await store.appendEvent(Self.report(id, store: nil, reason: "no_player", at: Self.start))
            }
            _ = try await store.deliver(Fixture.delivery(transactionId: delivered, source: .adminLookup))
            #expect(try await Self.rows(store, "SELECT transaction_id FROM owed_transactions") == [owed])
            try await store.write(
                .execute(
                    LedgerStatement(
                        "INSERT INTO owed_transactions (transaction_id, store, first_seen_at) VALUES (?, ?, ?)",
                        [.text(delivered), .text(Store.appStore.rawValue), .timestamp(Self.start)])))
            let later = Self.start.addingTimeInterval(1)
            #expect(try await store.owedTransactions(learnedBefore: later, limit: 10).map(\.transactionId) == [owed])
            #expect(try await store.owedCount(learnedBefore: later) == 1)
        }
    }

    /// Reports and deliveries of 36 transactions (ids of `series`), in a seeded order: one to
    /// three reports each at times two hours either side of ``start`` (some without a store,
    /// as events before migration 12), a third of them Google Play's; a quarter delivered
    /// after their reports, a sixth (of both stores) delivered before their only report, one App Store
    /// purchase whose id a Google Play report names, and events the queue ignores. Returns
    /// the transactions left owed, as `store/id`.
    private static func reportsAndDeliveries(
        on store: any SQLLedgerStore, series: Int, random: inout SeededGenerator
    ) async throws -> Set<String> {
        var owed = Set<String>()
        var reports: [HistoryEvent] = []
        var deliveredLater: [Delivery] = []
        for index in 0..<36 {
            let play = index % 3 == 2
            let id =
                play
                ? "GPA.3372-4150-\(series)000-\(10_000 + index)"
                : String(3_000_000_000_000_000 + series * 1_000 + index)
            let kind: Store = play ? .googlePlay : .appStore
            let delivery = Fixture.delivery(transactionId: id, source: .adminLookup, store: kind)
            if [1, 5].contains(index % 12) {
                _ = try await store.deliver(delivery)
                try await store.appendEvent(Self.report(id, store: kind, reason: "late", at: Self.start))
                continue
            }
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let offset = Double(Int.random(in: -7_200...7_200, using: &random))
                let named: Store? = play || Bool.random(using: &random) ? kind : nil
                reports.append(
                    Self.report(
                        id, store: named, reason: ["no_player", "unbound_transaction"].randomElement(using: &random)!,
                        at: Self.start.addingTimeInterval(offset)))
            }
            if index % 4 == 0 { deliveredLater.append(delivery) } else { owed.insert("\(kind.rawValue)/\(id)") }
        }
        reports.shuffle(using: &random)
        for report in reports { try await store.appendEvent(report) }
        for delivery in deliveredLater { _ = try await store.deliver(delivery) }

        // A Google Play report naming an App Store purchase's id is Google Play's, owed.
        let appStoreId = String(3_000_000_000_000_000 + series * 1_000 + 900)
        _ = try await store.deliver(Fixture.delivery(transactionId: appStoreId, source: .adminLookup))
        try await store.appendEvent(Self.report(appStoreId, store: .googlePlay, reason: "other_store", at: Self.start))
        owed.insert("\(Store.googlePlay.rawValue)/\(appStoreId)")
        // Events the queue does not read: a report of no transaction, another type.
        try await store.appendEvent(
            HistoryEvent(type: .awaitingReport, detail: ["reason": "none"], createdAt: Self.start))
        try await store.appendEvent(
            HistoryEvent(type: .purchaseRejected, transactionId: String(series), createdAt: Self.start))
        return owed
    }

    /// The new statements answer the old ones' rows for bounds either side of every report
    /// and limits below and above the queue's length, and list exactly `owed`.
    private static func expectSameAnswers(_ store: any SQLLedgerStore, owed: Set<String>) async throws {
        let type = SQLArgument.text(HistoryEventType.awaitingReport.rawValue)
        for hours in [-3.0, -1, -0.5, 0, 0.5, 1, 3] {
            let bound = Self.start.addingTimeInterval(hours * 3_600).ledgerNormalized
            for limit in [1, 7, 1_000] {
                let before = try await Self.owedRows(
                    store, LedgerStatement(Self.owedBefore, [type, .timestamp(bound), .integer(Int64(limit))]))
                let now = try await Self.owedRows(store, LedgerSQL.owedTransactions(learnedBefore: bound, limit: limit))
                #expect(now == before, "learned before \(hours) h, limit \(limit)")
                #expect(try await store.owedTransactions(learnedBefore: bound, limit: limit).count == before.count)
            }
            let counted = try await store.read(
                .first(LedgerStatement(Self.countBefore, [type, .timestamp(bound)])) { try $0.requiredInteger("owed") })
            #expect(try await store.owedCount(learnedBefore: bound) == Int(counted ?? -1), "learned before \(hours) h")
        }
        let all = try await Self.owedRows(
            store, LedgerSQL.owedTransactions(learnedBefore: .distantFuture, limit: 1_000))
        #expect(Set(all.map { "\($0.store)/\($0.transactionId)" }) == owed)
        #expect(all.contains { $0.attempts > 1 } && all.contains { $0.firstDetail != $0.latestDetail })
        // The triggers left no row of a delivered transaction: the table grows with the owed only.
        let kept = try await store.read(
            .rows(LedgerStatement("SELECT transaction_id, store FROM owed_transactions")) {
                "\(try $0.requiredText("store"))/\(try $0.requiredText("transaction_id"))"
            })
        #expect(Set(kept) == owed && kept.count == owed.count)
    }

    private static func owedRows(_ store: any SQLLedgerStore, _ statement: LedgerStatement) async throws -> [OwedRow] {
        try await store.read(
            .rows(statement) { row in
                OwedRow(
                    transactionId: try row.requiredText("transaction_id"), store: try row.requiredText("store"),
                    firstSeenAt: try row.requiredTimestamp("first_seen_at"),
                    lastSeenAt: try row.requiredTimestamp("last_seen_at"),
                    attempts: try row.requiredInteger("attempts"),
                    firstDetail: try row.requiredText("first_detail"),
                    latestDetail: try row.requiredText("latest_detail"))
            })
    }

    private static func rows(_ store: any SQLLedgerStore, _ sql: String) async throws -> [String] {
        try await store.read(.rows(LedgerStatement(sql)) { try $0.requiredText("transaction_id") })
    }

    /// An `awaiting_report` event of `transactionId`, as the notification intake records one.
    private static func report(_ transactionId: String, store: Store?, reason: String, at: Date) -> HistoryEvent {
        HistoryEvent(
            type: .awaitingReport, transactionId: transactionId, store: store,
            detail: ["reason": reason, "productId": "coins100", "source": "notification"], createdAt: at)
    }
}
