import AppStoreModel
import Foundation
import Ledger
import LedgerTestSupport
import Testing

/// The support console's reads, on both stores.
@Suite("SupportReads (SQLite and PostgreSQL)")
struct SupportReadsTests {
    /// Records that Apple charged for `transactionId` and nobody could be given it yet, as
    /// the notification intake does.
    static func awaitingReport(
        _ transactionId: String, reason: String, source: String = "notification", product: String = "coins100",
        at: Date
    ) -> HistoryEvent {
        HistoryEvent(
            type: .awaitingReport, transactionId: transactionId,
            detail: ["reason": reason, "productId": product, "source": source], createdAt: at)
    }

    @Test(
        "the owed queue: transactions awaiting a report that nobody received, oldest first",
        arguments: StoreKind.allCases)
    func owed(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let start = clock.now
            let (first, second, delivered, late) = ("1001", "1002", "1003", "1004")
            try await store.appendEvent(Self.awaitingReport(first, reason: "unbound_transaction", at: start))
            try await store.appendEvent(Self.awaitingReport(delivered, reason: "unbound_transaction", at: start))
            try await store.appendEvent(
                Self.awaitingReport(
                    second, reason: "unbound_transaction", product: "gems", at: start.addingTimeInterval(5)))
            try await store.appendEvent(
                Self.awaitingReport(
                    first, reason: "no_player", source: "reconciler", product: "other", at: start.addingTimeInterval(60)
                ))
            try await store.appendEvent(
                Self.awaitingReport(late, reason: "unbound_transaction", at: start.addingTimeInterval(3600)))
            try await store.appendEvent(HistoryEvent(type: .purchaseRejected, transactionId: "1005", createdAt: start))

            let before = start.addingTimeInterval(600)
            let queue = try await other.owedTransactions(learnedBefore: before, limit: 10)
            #expect(
                queue == [
                    OwedTransaction(
                        store: .appStore,
                        transactionId: first, productId: "coins100", reason: "no_player", source: "reconciler",
                        firstSeenAt: start, lastSeenAt: start.addingTimeInterval(60), attempts: 2),
                    OwedTransaction(
                        store: .appStore,
                        transactionId: delivered, productId: "coins100", reason: "unbound_transaction",
                        source: "notification", firstSeenAt: start, lastSeenAt: start, attempts: 1),
                    OwedTransaction(
                        store: .appStore,
                        transactionId: second, productId: "gems", reason: "unbound_transaction", source: "notification",
                        firstSeenAt: start.addingTimeInterval(5), lastSeenAt: start.addingTimeInterval(5), attempts: 1),
                ])
            #expect(try await other.owedTransactions(learnedBefore: before, limit: 1).map(\.transactionId) == [first])
            #expect(try await other.owedTransactions(learnedBefore: start.addingTimeInterval(-1), limit: 10) == [])

            _ = try await store.deliver(Fixture.delivery(transactionId: delivered, source: .adminLookup))
            #expect(
                try await other.owedTransactions(learnedBefore: before, limit: 10).map(\.transactionId)
                    == [first, second], "a delivered transaction is owed no more")
            #expect(
                try await other.owedTransactions(learnedBefore: start.addingTimeInterval(7200), limit: 10)
                    .map(\.transactionId) == [first, second, late])
        }
    }

    @Test("refund signals: negative balances and repeated refunds, with reversals", arguments: StoreKind.allCases)
    func refundSignals(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, _, _ in
            // player-1: three purchases refunded, one refund reversed → two refunded purchases.
            var refunded: [String] = []
            for _ in 0..<3 {
                let delivery = Fixture.delivery(player: "player-1")
                _ = try await store.deliver(delivery)
                _ = try await store.reverse(store: .appStore, transactionId: delivery.transactionId, reason: "REFUND")
                refunded.append(delivery.transactionId)
            }
            _ = try await store.regrant(store: .appStore, transactionId: refunded[0])
            // player-2: a balance below zero by a correction, no refunds.
            _ = try await store.grantManually(
                playerId: "player-2", grants: ["coins": -50, "gems": -1], reason: "correction", actor: "alice")
            _ = try await store.grantManually(playerId: "player-2", grants: ["keys": 3], reason: "gift", actor: "alice")
            // player-3: one refund, below the minimum.
            let single = Fixture.delivery(player: "player-3")
            _ = try await store.deliver(single)
            _ = try await store.reverse(store: .appStore, transactionId: single.transactionId, reason: "REFUND")
            // player-4: refunds after spending: below zero and refunded.
            let spent = Fixture.delivery(player: "player-4")
            _ = try await store.deliver(spent)
            _ = try await store.grantManually(
                playerId: "player-4", grants: ["coins": -80], reason: "spent", actor: "game")
            _ = try await store.reverse(store: .appStore, transactionId: spent.transactionId, reason: "REFUND")

            let signals = try await store.refundSignals(minimumRefunds: 2, limit: 10)
            #expect(
                signals == [
                    RefundSignal(playerId: "player-1", negativeBalances: [:], refundedPurchases: 2, reversals: 1),
                    RefundSignal(
                        playerId: "player-4", negativeBalances: ["coins": -80], refundedPurchases: 1, reversals: 0),
                    RefundSignal(
                        playerId: "player-2", negativeBalances: ["coins": -50, "gems": -1], refundedPurchases: 0,
                        reversals: 0),
                ])
            #expect(
                try await store.refundSignals(minimumRefunds: 2, limit: 2).map(\.playerId) == ["player-1", "player-4"])
            #expect(
                try await store.refundSignals(minimumRefunds: 1, limit: 10).map(\.playerId)
                    == ["player-1", "player-3", "player-4", "player-2"])
        }
    }

    @Test("purchases by flag (exact, case-sensitive), newest delivery first", arguments: StoreKind.allCases)
    func flagged(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let flagSets: [Set<String>] = [
                [PurchaseFlag.sandboxInProduction], [PurchaseFlag.unbound],
                [PurchaseFlag.unbound, PurchaseFlag.sandboxInProduction], ["SANDBOX_IN_PRODUCTION"],
                ["sandbox_in_production_extra"], ["50%_off"], [],
            ]
            var purchases: [Purchase] = []
            for flags in flagSets {
                purchases.append(try await store.deliver(Fixture.delivery(flags: flags)).purchase)
                clock.advance(by: 1)
            }
            #expect(
                try await other.purchases(flagged: PurchaseFlag.sandboxInProduction, limit: 10)
                    == [purchases[2], purchases[0]])
            #expect(try await other.purchases(flagged: PurchaseFlag.sandboxInProduction, limit: 1) == [purchases[2]])
            #expect(
                try await other.purchases(flagged: PurchaseFlag.unbound, limit: 10) == [purchases[2], purchases[1]])
            #expect(try await other.purchases(flagged: "50%_off", limit: 10) == [purchases[5]])
            #expect(try await other.purchases(flagged: "%", limit: 10) == [])
            #expect(try await other.purchases(flagged: "sandbox", limit: 10) == [])
        }
    }

    @Test("purchases by original transaction id", arguments: StoreKind.allCases)
    func byOriginalTransaction(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, _, clock in
            var renewals: [Purchase] = []
            for _ in 0..<2 {
                var delivery = Fixture.delivery()
                delivery.originalTransactionId = "2000"
                renewals.append(try await store.deliver(delivery).purchase)
                clock.advance(by: 1)
            }
            _ = try await store.deliver(Fixture.delivery())
            #expect(try await store.purchases(store: .appStore, originalTransactionId: "2000") == renewals)
            #expect(try await store.purchases(store: .appStore, originalTransactionId: "2001") == [])
        }
    }

    @Test("knowsPlayer: any order, purchase, balance, event or consent", arguments: StoreKind.allCases)
    func knowsPlayer(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            #expect(try await other.knowsPlayer("player-1") == false)
            _ = try await store.createOrder(Fixture.order(player: "with-order"))
            _ = try await store.deliver(Fixture.delivery(player: "with-purchase"))
            _ = try await store.grantManually(playerId: "with-balance", grants: ["coins": 1], reason: "r", actor: "a")
            try await store.appendClientEvents(
                playerId: "with-events", events: [ClientEvent(name: "purchase_started", occurredAt: clock.now)])
            _ = try await store.changeConsumptionConsent(
                ConsumptionConsentChange(playerId: "with-consent", status: .given, source: .player))
            for player in ["with-order", "with-purchase", "with-balance", "with-events", "with-consent"] {
                #expect(try await other.knowsPlayer(player), "\(player)")
            }
            #expect(try await other.knowsPlayer("player-1") == false)
            #expect(try await other.knowsPlayer("with-%") == false)
        }
    }

    @Test("the timeline newest first, paged by event id and filtered by type", arguments: StoreKind.allCases)
    func timelineNewestFirst(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let order = try await store.createOrder(Fixture.order())
            let delivery = Fixture.delivery(orderId: order.orderId)
            _ = try await store.recordNotification(
                store: .appStore,
                notificationUUID: UUID().uuidString, type: "ONE_TIME_CHARGE", subtype: nil,
                transactionId: delivery.transactionId, signedDate: clock.now, refund: nil, receivedAt: clock.now)
            clock.advance(by: 1)
            _ = try await store.deliver(delivery)
            try await store.appendClientEvents(
                playerId: "player-1",
                events: (0..<3).map { ClientEvent(name: "step-\($0)", occurredAt: clock.now) })
            _ = try await store.grantManually(
                playerId: "player-1", grants: ["coins": 5], reason: "sorry", actor: "alice")
            _ = try await store.grantManually(
                playerId: "player-2", grants: ["coins": 5], reason: "other", actor: "alice")
            try await store.appendEvent(
                HistoryEvent(type: .notificationReceived, transactionId: "unrelated", createdAt: clock.now))

            let all = try await store.timeline(playerId: "player-1").sorted { ($0.id ?? 0) > ($1.id ?? 0) }
            #expect(all.count == 7, "order, notification, delivery, 3 client events, grant: \(all.map(\.type))")
            #expect(all.contains { $0.type == .notificationReceived && $0.playerId == nil })
            #expect(
                try await other.timelineNewestFirst(playerId: "player-1", beforeId: nil, limit: 100, types: nil) == all)

            var paged: [HistoryEvent] = []
            var before: Int64?
            while true {
                let page = try await other.timelineNewestFirst(
                    playerId: "player-1", beforeId: before, limit: 3, types: nil)
                paged += page
                guard page.count == 3 else { break }
                before = page.last?.id
            }
            #expect(paged == all)

            let types: [HistoryEventType] = [.clientEvent, .notificationReceived]
            let filtered = try await other.timelineNewestFirst(
                playerId: "player-1", beforeId: nil, limit: 100, types: types)
            #expect(filtered == all.filter { types.contains($0.type) })
            #expect(filtered.count == 4)
            let olderClientEvents = try await other.timelineNewestFirst(
                playerId: "player-1", beforeId: filtered[1].id, limit: 1, types: [.clientEvent])
            #expect(olderClientEvents == [filtered[2]])
            #expect(
                try await other.timelineNewestFirst(playerId: "player-1", beforeId: nil, limit: 10, types: []) == [])
            #expect(try await other.timelineNewestFirst(playerId: "nobody", beforeId: nil, limit: 10, types: nil) == [])
        }
    }

    @Test(
        "delivery activity: deliveries, refunds and reversals since a time, and the outbox",
        arguments: StoreKind.allCases)
    func deliveryActivity(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let old = Fixture.delivery(source: .notification)
            _ = try await store.deliver(old)
            _ = try await store.reverse(store: .appStore, transactionId: old.transactionId, reason: "REFUND")
            clock.advance(by: 3600)
            let since = clock.now

            var deliveries: [Purchase] = []
            for source in [DeliverySource.clientSignedTransaction, .reconciler, .adminLookup] {
                clock.advance(by: 10)
                deliveries.append(try await store.deliver(Fixture.delivery(source: source)).purchase)
            }
            clock.advance(by: 10)
            let refundedAt = clock.now
            _ = try await store.reverse(store: .appStore, transactionId: deliveries[0].transactionId, reason: "REFUND")
            clock.advance(by: 10)
            let reversedAt = clock.now
            _ = try await store.regrant(store: .appStore, transactionId: deliveries[0].transactionId)

            // The outbox: 4 deliveries and 3 refund messages; one acknowledged, one failed.
            let acknowledged = try #require(try await store.outboxMessage(idempotencyKey: old.transactionId))
            try await store.markOutboxDelivered(id: acknowledged.id)
            let failing = try #require(try await store.outboxMessage(idempotencyKey: deliveries[1].transactionId))
            try await store.markOutboxFailed(
                id: failing.id, nextAttemptAt: clock.now.addingTimeInterval(60), error: "503")

            let activity = try await other.deliveryActivity(since: since, limit: 100)
            #expect(activity.refunds == [refundedAt])
            #expect(activity.reversals == [reversedAt])
            #expect(activity.outboxBacklog == 6)
            #expect(activity.webhookFailures == 1)

            let limited = try await other.deliveryActivity(since: since, limit: 1)
            #expect(limited.refunds == [refundedAt])
            #expect(limited.reversals == [], "the limit counts refunds and reversals together, oldest first")
        }
    }

    @Test(
        "revenue facts: the purchases delivered from a day on by day of purchase, the refunds by day of refund, as they stand",
        arguments: StoreKind.allCases)
    func revenueActivity(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            func deliver(_ product: String, quantity: Int = 1, purchasedAt: Date) async throws -> Purchase {
                var delivery = Fixture.delivery(product: product)
                delivery.quantity = quantity
                delivery.purchaseDate = purchasedAt
                return try await store.deliver(delivery).purchase
            }
            let old = try await deliver("coins500", purchasedAt: clock.now)
            _ = try await store.reverse(store: .appStore, transactionId: old.transactionId, reason: "REFUND")
            clock.advance(by: 2 * 86_400)
            let since = clock.now
            let potions = try await deliver("potion", quantity: 3, purchasedAt: since)
            _ = try await deliver("coins100", purchasedAt: since)
            // Delivered in the window, bought three days before it: left out.
            _ = try await deliver("coins100", purchasedAt: since.addingTimeInterval(-3 * 86_400))
            let regranted = try await deliver("coins500", purchasedAt: since)
            clock.advance(by: 60)
            let refundedAt = clock.now
            _ = try await store.reverse(store: .appStore, transactionId: potions.transactionId, reason: "REFUND")
            _ = try await store.reverse(store: .appStore, transactionId: regranted.transactionId, reason: "REFUND")
            _ = try await store.regrant(store: .appStore, transactionId: regranted.transactionId)

            let activity = try await other.deliveryActivity(since: since, limit: 100)
            let day = DeliveryDayCount.day(since)
            #expect(
                activity.purchaseDays == [
                    PurchaseDayCount(day: day, productId: "coins100", quantity: 1, purchases: 1),
                    PurchaseDayCount(day: day, productId: "coins500", quantity: 1, purchases: 1),
                    PurchaseDayCount(day: day, productId: "potion", quantity: 3, purchases: 1),
                ])
            #expect(
                activity.refundDays == [
                    RefundDayCount(
                        day: DeliveryDayCount.day(refundedAt), productId: "potion", quantity: 3,
                        refundedShare: RefundShare.whole, purchases: 1)
                ], "the refund before `since`'s day and the reversed one are left out")
        }
    }

    @Test("the owed count is the owed queue's length without a limit", arguments: StoreKind.allCases)
    func owedCount(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let start = clock.now
            #expect(try await other.owedCount(learnedBefore: start) == 0)
            for (index, id) in ["2001", "2002", "2003"].enumerated() {
                try await store.appendEvent(
                    Self.awaitingReport(id, reason: "no_player", at: start.addingTimeInterval(Double(index) * 10)))
            }
            try await store.appendEvent(Self.awaitingReport("2001", reason: "no_player", at: start))
            #expect(try await other.owedCount(learnedBefore: start.addingTimeInterval(10)) == 2)
            #expect(try await other.owedCount(learnedBefore: start.addingTimeInterval(60)) == 3)
            _ = try await store.deliver(Fixture.delivery(transactionId: "2002", source: .adminLookup))
            let after = start.addingTimeInterval(60)
            #expect(try await other.owedCount(learnedBefore: after) == 2)
            #expect(
                try await other.owedCount(learnedBefore: after)
                    == other.owedTransactions(learnedBefore: after, limit: 100).count)
        }
    }

    @Test("manual grants by the path they came by, newest first, in a time window", arguments: StoreKind.allCases)
    func manualGrantsByPath(kind: StoreKind) async throws {
        try await withClockedStores(kind) { store, other, clock in
            let start = clock.now
            _ = try await store.grantManually(
                playerId: "p1", grants: ["coins": 5], reason: "console", actor: "alice")
            clock.advance(by: 10)
            _ = try await store.grantManually(
                playerId: "p2", grants: ["coins": -5], reason: "spent", actor: "game-server",
                via: ManualGrantPath.adminAPI)
            clock.advance(by: 10)
            _ = try await store.grantManually(
                playerId: "p3", grants: ["coins": 7], reason: #"quotes "via":"admin_api""#, actor: "bob")
            clock.advance(by: 10)
            _ = try await store.grantManually(
                playerId: "p4", grants: ["gems": 1], reason: "bulk", actor: "admin", via: ManualGrantPath.adminAPI)

            let all = try await other.manualGrants(
                via: ManualGrantPath.adminAPI, notBefore: nil, before: nil, limit: 10)
            #expect(all.map(\.playerId) == ["p4", "p2"])
            #expect(all.map { $0.detail["actor"] } == ["admin", "game-server"])
            #expect(all.allSatisfy { $0.type == .manualGrant && $0.detail["via"] == ManualGrantPath.adminAPI })
            let window = try await other.manualGrants(
                via: ManualGrantPath.adminAPI, notBefore: start, before: start.addingTimeInterval(30), limit: 10)
            #expect(window.map(\.playerId) == ["p2"])
            #expect(
                try await other.manualGrants(
                    via: ManualGrantPath.adminAPI, notBefore: start.addingTimeInterval(10), before: nil, limit: 1
                ).map(\.playerId) == ["p4"])
            #expect(try await other.manualGrants(via: "elsewhere", notBefore: nil, before: nil, limit: 10) == [])
        }
    }
}
