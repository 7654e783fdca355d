import Foundation
import GRDB
import LedgerTestSupport
import Testing

@testable import Ledger

/// On a ledger with history (``HistoryFill``), every statement the server's paths run —
/// delivery, support's searches and pages, the owed queue, the overview, timeline paging
/// deep into the whale's history, the reconciler's and the backfill's reads, the outbox —
/// is read back with `EXPLAIN QUERY PLAN`, and none walks a whole large table: each finds
/// its rows through an index (`SEARCH`), never `SCAN`s the table or one of its indexes from
/// end to end. The statements are the ones SQLite actually ran, recorded by a trace on the
/// store's own connections, so a new statement on these paths is checked without listing it
/// here.
struct FilledLedgerPlanTests {
    /// The tables that grow with the ledger's age, and `owed_transactions`, which grows with
    /// the owed only but is read by its index too (a walk would read every row PostgreSQL's
    /// triggers ever left of a delivered transaction).
    static let largeTables: Set<String> = [
        "orders", "purchases", "ledger_entries", "balances", "outbox", "history_events", "notifications",
        "refund_notices", "entitlements", "consumption_consents", "audit_log", "spends", "known_players",
        "owed_transactions",
        "delivery_days", "delivery_latencies", "player_refunds", "purchase_days", "refund_days",
        "player_unowned_events", "player_entry_totals", "player_purchase_groups",
    ]

    /// Statements known to walk a large table or index, found by this test (2026-11-29), each
    /// with why: "bounded" ones walk a partial index whose rows do not grow with the ledger's
    /// age (only with its outbox backlog, its refunds, its flagged purchases, its players with
    /// an id outside ASCII), or a table of one row per player (docs/PERFORMANCE.md, "Years of
    /// history"). Anything else that scans fails the test.
    static let knownScans: [(fragment: String, reason: String)] = [
        (
            "FROM known_players\nWHERE instr(lower(player_id)",
            """
            bounded by players: a player search of one or two characters, which has no trigram for \
            known_players_search, walks known_players (one row per player, not per purchase)
            """
        ),
        (
            "WHERE length(player_id) <>",
            "bounded: ids outside ASCII walk the partial index known_players_outside_ascii, only those ids"
        ),
        (
            "FROM outbox WHERE delivered_at IS NULL",
            "bounded: the backlog count walks the partial index outbox_due, only undelivered messages"
        ),
        (
            "SELECT player_id FROM balances WHERE amount < 0",
            """
            bounded: refund signals walk the partial index balances_negative, only negative balances \
            (their refunded purchases come from player_refunds, the most refunded first by its index)
            """
        ),
        (
            "WHERE flags <> '[]' AND",
            "bounded: flagged purchases walk the partial index purchases_flagged, only purchases with a flag"
        ),
    ]

    @Test("no statement on the server's paths scans a large table of a filled ledger")
    func noPathScansALargeTable() async throws {
        let ledger = try await FilledSQLiteLedger.make()
        let recorded = try await ledger.recording {
            try await FilledLedgerPaths.run(on: ledger.store, player: ledger.summary.whale, now: ledger.now)
        }

        let statements = Set(recorded.map(\.sql))
        #expect(statements.count > 30, "the paths ran \(statements.count) distinct statements")
        var scans: [String] = []
        for sql in statements.sorted() {
            let trimmed = sql.trimmingCharacters(in: .whitespacesAndNewlines)
            let upper = trimmed.uppercased()
            guard ["SELECT", "WITH", "UPDATE", "DELETE", "INSERT"].contains(where: { upper.hasPrefix($0) }) else {
                continue
            }
            let steps = try await ledger.pool.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + trimmed).map { $0["detail"] as String }
            }
            for step in steps where Self.scansLargeTable(step) {
                if Self.isKnown(trimmed) { continue }
                scans.append("\(step)\n    in: \(trimmed.prefix(400))")
            }
        }
        #expect(scans.isEmpty, "statements that scan a large table:\n\(scans.joined(separator: "\n"))")
        try await ledger.close()
    }

    /// Whether `statement` is one of ``knownScans``.
    static func isKnown(_ statement: String) -> Bool {
        knownScans.contains { statement.contains($0.fragment) }
    }

    /// Whether a plan step walks a large table (or one of its indexes) from end to end.
    static func scansLargeTable(_ step: String) -> Bool {
        guard step.hasPrefix("SCAN ") else { return false }
        let table = step.dropFirst(5).prefix { $0 != " " }
        return largeTables.contains(String(table))
    }
}

/// The ledger reads and writes of the server's paths, on a filled ledger: what the plan
/// and work checks record.
enum FilledLedgerPaths {
    /// Runs the paths for `player`, who must have bought at least once: the whale for the
    /// plans (the deepest pages), a player of one purchase for the work each statement does.
    static func run(on store: any LedgerStore, player: String, now: Date) async throws {
        // Delivery: by order (one round trip) and the whole way.
        let order = try await store.createOrder(
            Order(
                orderId: UUID().uuidString.lowercased(), playerId: player, productId: "coins100",
                appAccountToken: UUID().uuidString.lowercased(), createdAt: now,
                expiresAt: now.addingTimeInterval(3_600)))
        _ = try await store.deliverByOrder(
            delivery("9100000000000001", player: player, orderId: order.orderId, now: now),
            appAccountToken: order.appAccountToken)
        _ = try await store.deliver(delivery("9100000000000002", player: player, orderId: nil, now: now))
        _ = try await store.deliver(delivery("9100000000000002", player: player, orderId: nil, now: now))

        // The player page and support's searches.
        _ = try await store.grantManually(playerId: player, grants: ["coins": 5], reason: "plans", actor: "ann")
        _ = try await store.playerTotals(playerId: player)
        _ = try await store.newestOrders(playerId: player, limit: 200)
        _ = try await store.newestPurchases(playerId: player, limit: 200)
        _ = try await store.newestManualEntries(playerId: player, limit: 200)
        let purchases = try await store.purchases(playerId: player)
        let purchase = try #require(purchases.first)
        _ = try await store.purchase(store: .appStore, transactionId: purchase.transactionId)
        _ = try await store.purchases(store: .appStore, originalTransactionId: purchase.originalTransactionId)
        _ = try await store.order(id: order.orderId)
        _ = try await store.order(appAccountToken: order.appAccountToken)
        _ = try await store.events(transactionId: purchase.transactionId)
        _ = try await store.events(orderId: order.orderId)
        _ = try await store.wallet(playerId: player)
        _ = try await store.entitlements(playerId: player)
        _ = try await store.knowsPlayer(player)
        _ = try await store.players(resembling: "player-1", limit: 20)
        _ = try await store.players(resembling: "Er", limit: 20)
        _ = try await store.players(outsideASCIILimit: 50)
        var ordersPage = try await store.orders(playerId: player, page: LedgerPageRequest(limit: 50))
        if let next = ordersPage.next {
            ordersPage = try await store.orders(playerId: player, page: LedgerPageRequest(after: next, limit: 50))
        }
        // Timeline paging deep into the player's history (five pages into the whale's).
        var beforeId: Int64?
        for _ in 0..<5 {
            let page = try await store.timelineNewestFirst(playerId: player, beforeId: beforeId, limit: 50, types: nil)
            beforeId = page.last?.id
        }
        _ = try await store.timelineNewestFirst(
            playerId: player, beforeId: beforeId, limit: 50, types: [.delivered, .refunded])
        // The player page's client events and notifications.
        _ = try await store.timelineNewestFirst(playerId: player, beforeId: nil, limit: 50, types: [.clientEvent])
        _ = try await store.timelineNewestFirst(
            playerId: player, beforeId: nil, limit: 50, types: HistoryEventType.notificationTypes)
        var timeline = try await store.timeline(playerId: player, page: LedgerPageRequest(limit: 100))
        if let next = timeline.next {
            timeline = try await store.timeline(playerId: player, page: LedgerPageRequest(after: next, limit: 100))
        }

        // The owed queue (a report of a transaction delivered and of one owed first, which
        // its triggers record), the overview and the signals.
        for transactionId in ["9100000000000002", "9100000000000003"] {
            try await store.appendEvent(
                HistoryEvent(
                    type: .awaitingReport, transactionId: transactionId, store: .appStore,
                    detail: ["reason": "no_player"], createdAt: now))
        }
        _ = try await store.owedTransactions(learnedBefore: now, limit: 50)
        _ = try await store.owedCount(learnedBefore: now)
        _ = try await store.ownerCandidates(
            productId: "coins100", appAccountToken: order.appAccountToken, createdFrom: now.addingTimeInterval(-3_600),
            createdTo: now, limit: 20)
        _ = try await store.deliveryActivity(since: now.addingTimeInterval(-30 * 86_400), limit: 500)
        _ = try await store.refundSignals(minimumRefunds: 2, limit: 50)
        _ = try await store.purchases(flagged: PurchaseFlag.sandboxInProduction, limit: 50)
        _ = try await store.manualGrants(via: "console", notBefore: nil, before: nil, limit: 50)

        // The reconciler's pass: its lease and checkpoint, a notification of its history new
        // and then found again (read first, recorded, processed, read again), the lapsed
        // subscriptions with each one's check, and the Google Play purchases to settle.
        let lease = try await store.acquireLease("plans.lease", holder: "plans", duration: 60)
        _ = try await store.checkpoint("plans.checkpoint")
        let notificationUUID = UUID().uuidString.lowercased()
        _ = try await store.notification(uuid: notificationUUID)
        _ = try await store.recordNotification(
            store: .appStore, notificationUUID: notificationUUID, type: "ONE_TIME_CHARGE", subtype: nil,
            transactionId: purchase.transactionId, signedDate: now, refund: nil, receivedAt: now)
        try await store.markNotificationProcessed(notificationUUID)
        _ = try await store.notification(uuid: notificationUUID)
        _ = try await store.lapsedSubscriptions(before: now, limit: 50)
        // A filled ledger's subscriptions are renewed up to now: the check of one runs on any.
        if let entitlement = try await store.entitlements(playerId: player).first {
            _ = try await store.entitlement(
                store: entitlement.store, originalTransactionId: entitlement.originalTransactionId)
            _ = try await store.postponeSubscriptionCheck(
                store: entitlement.store, originalTransactionId: entitlement.originalTransactionId, now: now)
        }
        _ = try await store.purchases(
            store: .googlePlay, deliveredSince: now.addingTimeInterval(-4 * 86_400),
            without: ["acknowledged_at_google", "acknowledge_at_google_refused"], limit: 500)
        _ = try await store.advanceCheckpoint(
            "plans.checkpoint", to: Int64(now.timeIntervalSince1970 * 1_000), holding: lease)
        try await store.releaseLease("plans.lease", holder: "plans")

        // The backfill's and the outbox's reads.
        _ = try await store.purchasesWithoutEntitlement(
            productIds: ["levelpack1", "vip.monthly", "seasonpass"], after: nil, limit: 100)
        _ = try await store.dueOutboxMessages(now: now, limit: 50)
        _ = try await store.notification(uuid: UUID().uuidString.lowercased())
        _ = try await store.settleRefundState(store: .appStore, transactionId: purchase.transactionId, reason: "REFUND")
    }

    /// A player of the fill who bought once and whose purchase has player-less events (a
    /// notification, the App Store's finishing), so that both parts of their timeline hold
    /// rows: the player the work checks run the paths for. Found through the store's own
    /// reads, the same on both databases.
    static func smallPlayer(on store: any LedgerStore, summary: HistoryFillSummary) async throws -> String {
        for number in 1..<summary.players {
            let player = "player-\(number)"
            let purchases = try await store.purchases(playerId: player)
            guard purchases.count == 1, let purchase = purchases.first else { continue }
            let events = try await store.events(transactionId: purchase.transactionId)
            if events.contains(where: { $0.playerId == nil }) { return player }
        }
        throw SmallPlayerMissing()
    }

    /// The player's id and the ids of their purchases and orders, each as the literal a
    /// statement about them shows once its values are bound (SQLite's expanded SQL,
    /// PostgreSQL's plan conditions).
    static func identifiers(of player: String, on store: any LedgerStore) async throws -> [String] {
        let purchases = try await store.purchases(playerId: player)
        let orders = try await store.orders(playerId: player)
        let ids = [player] + purchases.flatMap { [$0.transactionId, $0.originalTransactionId] } + orders.map(\.orderId)
        return Set(ids).sorted().map { "'\($0)'" }
    }

    /// The fill holds no player of one purchase with player-less events.
    struct SmallPlayerMissing: Error {}

    private static func delivery(_ transactionId: String, player: String, orderId: String?, now: Date) -> Delivery {
        Delivery(
            store: .appStore, transactionId: transactionId, originalTransactionId: transactionId, playerId: player,
            orderId: orderId, productId: "coins100", environment: .production, source: .clientSignedTransaction,
            grants: ["coins": 100], purchaseDate: now)
    }
}
