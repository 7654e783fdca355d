import Foundation
import LedgerTestSupport
import Testing

@testable import Ledger
@testable import SupportConsole

/// The overview's revenue from the per-day counts of migration 20 (`purchase_days`,
/// `refund_days`) equals what it computed before from every delivery and every refunded
/// purchase of its window (the reference below, kept here only), on both ledgers: purchases
/// over six weeks in three currencies and of a product without a price, several quantities,
/// late deliveries (days after the purchase date, across the window's first day) and one
/// charged after its delivery (clocks that differ), refunds whole and partial, a share
/// raised, reversals back to 0 and staff give-backs; counted by migration 20's backfill of
/// the purchases before it and by its triggers after.
struct DailyRevenueRollupTests {
    /// The catalog's currencies in the test, one of them without a sale.
    static let currencies: Set<String> = ["USD", "CNY", "JPY", "EUR"]
    /// The products bought in turn, with their quantities (seven: each meets every change of
    /// ``History/step(_:)``, which goes round six).
    static let products: [(id: String, quantity: Int)] = [
        ("coins100", 1), ("coins500", 2), ("gems10", 1), ("jpypack", 1), ("unpriced", 1), ("coins100", 3),
        ("gems10", 2),
    ]
    /// Seconds from the purchase date to the delivery, in turn: at once, late by an hour, a
    /// day and three days, and 10 minutes early (Apple's clock ahead of the ledger's).
    static let latencies: [TimeInterval] = [0, 3_600, -600, 26 * 3_600, 3 * 86_400 + 17, 30]

    @Test(
        "the revenue from per-day counts equals the revenue from every delivery and refund",
        arguments: StoreKind.allCases)
    func revenueEqualsTheDeliveryByDeliveryRevenue(kind: StoreKind) async throws {
        let database = try await kind.makeDatabase()
        defer { database.remove() }
        // Twenty minutes before a UTC midnight.
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_057_600 - 1_200))
        let store = try #require(try database.open(clock: clock) as? any SQLLedgerStore)
        do {
            try await store.migrate(through: 19)
            var history = History(store: store, clock: clock)
            for step in 0..<20 { try await history.step(step) }
            try await store.migrate()
            #expect(try await store.appliedMigrations().contains(20))
            try await Self.expectSameRevenue(store, now: clock.now)
            for step in 20..<45 { try await history.step(step) }
            try await Self.expectSameRevenue(store, now: clock.now)
            // A window that ends earlier: every day of it, its first one cut through by late
            // deliveries.
            try await Self.expectSameRevenue(store, now: clock.now.addingTimeInterval(-4 * 86_400))
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// Purchases and refunds written step by step, the clock moved 23 h 17 min between steps.
    struct History {
        let store: any LedgerStore
        let clock: ManualClock
        var bought: [String] = []

        /// One step: one to three purchases, each followed by a refund of the purchase bought
        /// three before it, and a second change to the one bought nine before it.
        mutating func step(_ step: Int) async throws {
            for _ in 0...(step % 3) {
                let index = bought.count
                let product = DailyRevenueRollupTests.products[index % DailyRevenueRollupTests.products.count]
                let id = String(7_200_000_000 + index)
                _ = try await store.deliver(
                    Delivery(
                        store: .appStore, transactionId: id, originalTransactionId: id, playerId: "player-\(index % 4)",
                        productId: product.id, quantity: product.quantity, environment: .production,
                        source: .clientSignedTransaction, grants: ["coins": 10],
                        purchaseDate: clock.now.addingTimeInterval(
                            -DailyRevenueRollupTests.latencies[index % DailyRevenueRollupTests.latencies.count])))
                bought.append(id)
                if index >= 3 { try await refund(index - 3) }
                if index >= 9 { try await change(index - 9) }
            }
            clock.advance(by: 23 * 3_600 + 17 * 60)
        }

        /// The first refund of the purchase bought `index`-th, by its place in a round of six:
        /// whole (the ledger's own reversal), a third, none, half (revoked), whole (Apple's
        /// notice), none.
        private func refund(_ index: Int) async throws {
            switch index % 6 {
            case 0: _ = try await store.reverse(store: .appStore, transactionId: bought[index], reason: "REFUND")
            case 1: try await settle(bought[index], .init(kind: .refund, refundedShare: 33_333, reason: "REFUND"))
            case 3: try await settle(bought[index], .init(kind: .revoke, refundedShare: 50_000, reason: "REVOKE"))
            case 4: try await settle(bought[index], .init(kind: .refund, refundedShare: 100_000, reason: "REFUND"))
            default: break
            }
        }

        /// The second change to the purchase bought `index`-th, days after its refund: a staff
        /// give-back of the whole refund, the third raised to 80 %, the half reversed to 0.
        private func change(_ index: Int) async throws {
            switch index % 6 {
            case 0: _ = try await store.regrant(store: .appStore, transactionId: bought[index])
            case 1: try await settle(bought[index], .init(kind: .refund, refundedShare: 80_000, reason: "REFUND"))
            case 3:
                try await settle(bought[index], .init(kind: .reversal, refundedShare: 0, reason: "REFUND_REVERSED"))
            default: break
            }
        }

        /// Apple's refund notice for `id`, recorded and settled now.
        private func settle(_ id: String, _ notice: RefundNotice) async throws {
            _ = try await store.recordNotification(
                store: .appStore, notificationUUID: UUID().uuidString, type: notice.reason, subtype: nil,
                transactionId: id, signedDate: clock.now, refund: notice, receivedAt: clock.now)
            _ = try await store.settleRefundState(store: .appStore, transactionId: id, reason: notice.reason)
        }
    }

    /// Expects the revenue of the 30 days ending with `now`'s from the store's per-day counts
    /// to equal the reference's from every purchase, and to hold money of each kind.
    private static func expectSameRevenue(_ store: any LedgerStore, now: Date) async throws {
        let days = SupportPages.overviewDays
        let since = try #require(DailyCounts.count([], days: days, endingAt: now).first?.day)
        let activity = try await store.deliveryActivity(since: since, limit: 100_000)
        let counted = DailyRevenue.count(
            activity, days: days, endingAt: now, currencies: currencies, price: PlayerSummaryTotalsTests.listPrice)
        var purchases: [Purchase] = []
        for player in 0..<4 { purchases += try await store.purchases(playerId: "player-\(player)") }
        let reference = deliveryByDelivery(purchases, since: since, days: days, now: now)
        #expect(counted.revenue == reference.revenue)
        #expect(counted.unpriced == reference.unpriced && reference.unpriced > 0)
        #expect(reference.revenue.map(\.currency) == ["CNY", "EUR", "JPY", "USD"])
        for currency in reference.revenue where currency.currency != "EUR" {
            #expect(currency.total.gross > 0 && currency.total.refunded > 0, "\(currency.currency)")
        }
    }

    /// What the overview computed before migration 20, from every purchase delivered in the
    /// window (each on its purchase date, left out when that falls outside the days) and every
    /// purchase refunded in it and still refunded (on its refund date, the list price's share
    /// rounded down per purchase).
    private static func deliveryByDelivery(_ purchases: [Purchase], since: Date, days: Int, now: Date)
        -> (revenue: [DailyRevenue], unpriced: Int)
    {
        let starts = DailyCounts.count([], days: days, endingAt: now).map(\.day)
        let firstDay = starts.first.map(DailyCounts.dayNumber) ?? 0
        let empty = starts.map { DailyRevenue.Day(day: $0) }
        var byCurrency = Dictionary(uniqueKeysWithValues: currencies.map { ($0, empty) })
        var unpriced = 0
        let sales = purchases.filter { $0.deliveredAt >= since }.map {
            (productId: $0.productId, quantity: $0.quantity, date: $0.purchaseDate, refundedShare: Int?.none)
        }
        let refunds = purchases.compactMap { purchase in
            purchase.refundedAt.flatMap { refundedAt in
                purchase.refundedShare > 0 && refundedAt >= since
                    ? (
                        productId: purchase.productId, quantity: purchase.quantity, date: refundedAt,
                        refundedShare: Int?.some(purchase.refundedShare)
                    ) : nil
            }
        }
        for entry in sales + refunds {
            let slot = DailyCounts.dayNumber(entry.date) - firstDay
            guard starts.indices.contains(slot) else { continue }
            guard let money = PlayerSummaryTotalsTests.listPrice(entry.productId, entry.quantity) else {
                if entry.refundedShare == nil { unpriced += 1 }
                continue
            }
            if let share = entry.refundedShare {
                byCurrency[money.currency, default: empty][slot].refunded &+= money.share(share).milliunits
            } else {
                byCurrency[money.currency, default: empty][slot].gross &+= money.milliunits
            }
        }
        let revenue = byCurrency.sorted { $0.key < $1.key }.map { DailyRevenue(currency: $0.key, days: $0.value) }
        return (revenue, unpriced)
    }
}
