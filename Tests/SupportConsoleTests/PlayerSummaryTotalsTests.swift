import Foundation
import Ledger
import LedgerTestSupport
import Testing

@testable import SupportConsole

/// The player page's summary from the totals the database adds up (``PlayerTotals``) equals
/// what the page computed before from every row of the player's history (the reference
/// below, kept here only), on both ledgers: a varied player with purchases of several
/// products, quantities and currencies, one the catalog does not price, refunds whole and
/// partial, a refund reversed, manual grants and spends; and another player's rows do not
/// count.
struct PlayerSummaryTotalsTests {
    /// The catalog's list prices of the test: two currencies, one product without a price.
    static let prices: [String: ConsoleMoney] = [
        "coins100": ConsoleMoney(milliunits: 990, currency: "USD"),
        "coins500": ConsoleMoney(milliunits: 3_990, currency: "USD"),
        "gems10": ConsoleMoney(milliunits: 68_000, currency: "CNY"),
        "jpypack": ConsoleMoney(milliunits: 1_200_000, currency: "JPY"),
    ]

    static func listPrice(_ productId: String, _ quantity: Int) -> ConsoleMoney? {
        prices[productId].map { ConsoleMoney(milliunits: $0.milliunits * Int64(quantity), currency: $0.currency) }
    }

    @Test("the summary added up by the database equals the one computed from every row", arguments: StoreKind.allCases)
    func totalsEqualTheRowByRowSummary(_ kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            var transaction = 0
            func buy(_ player: String, _ product: String, quantity: Int = 1, _ grants: Grants) async throws -> String {
                transaction += 1
                let id = "71000000000\(transaction)"
                _ = try await store.deliver(
                    Delivery(
                        store: .appStore, transactionId: id, originalTransactionId: id, playerId: player,
                        productId: product, quantity: quantity, environment: .production,
                        source: .clientSignedTransaction,
                        grants: grants, purchaseDate: start.addingTimeInterval(Double(transaction))))
                return id
            }
            func settle(_ id: String, _ notice: RefundNotice, at seconds: Int64) async throws {
                _ = try await store.recordNotification(
                    store: .appStore, notificationUUID: UUID().uuidString, type: notice.reason, subtype: nil,
                    transactionId: id, signedDate: start.addingTimeInterval(Double(seconds)), refund: notice,
                    receivedAt: Date())
                _ = try await store.settleRefundState(store: .appStore, transactionId: id, reason: notice.reason)
            }
            var bought: [String] = []
            for _ in 0..<3 { bought.append(try await buy("vera", "coins100", ["coins": 100])) }
            bought.append(try await buy("vera", "coins500", quantity: 2, ["coins": 1_000]))
            bought.append(try await buy("vera", "coins500", quantity: 2, ["coins": 1_000]))
            bought.append(try await buy("vera", "gems10", ["gems": 10, "coins": 50]))
            bought.append(try await buy("vera", "jpypack", ["coins": 777]))
            bought.append(try await buy("vera", "unpriced", ["tickets": 3]))
            bought.append(try await buy("vera", "unpriced", ["tickets": 3]))
            _ = try await buy("other", "coins500", ["coins": 500])
            // Whole, partial (two at one share: one group), a refund reversed, a partial one
            // of an unpriced product, and one in JPY.
            try await settle(bought[0], RefundNotice(kind: .refund, refundedShare: 100_000, reason: "REFUND"), at: 100)
            try await settle(bought[3], RefundNotice(kind: .refund, refundedShare: 33_333, reason: "REFUND"), at: 101)
            try await settle(bought[4], RefundNotice(kind: .refund, refundedShare: 33_333, reason: "REFUND"), at: 102)
            try await settle(bought[1], RefundNotice(kind: .refund, refundedShare: 100_000, reason: "REFUND"), at: 103)
            try await settle(
                bought[1], RefundNotice(kind: .reversal, refundedShare: 0, reason: "REFUND_REVERSED"), at: 104)
            try await settle(bought[5], RefundNotice(kind: .revoke, refundedShare: 50_000, reason: "REVOKE"), at: 105)
            try await settle(bought[6], RefundNotice(kind: .refund, refundedShare: 25_000, reason: "REFUND"), at: 106)
            try await settle(bought[7], RefundNotice(kind: .refund, refundedShare: 10_000, reason: "REFUND"), at: 107)
            _ = try await store.grantManually(
                playerId: "vera", grants: ["coins": 40, "gems": 5], reason: "ticket 1", actor: "ann")
            _ = try await store.grantManually(
                playerId: "vera", grants: ["coins": -15], reason: "ticket 2", actor: "bob")
            _ = try await store.grantManually(playerId: "other", grants: ["coins": 9], reason: "ticket 3", actor: "ann")
            // Two reasons: the reference tells spends apart by their keys (time, actor, reason),
            // and the two may share a millisecond.
            for (key, items) in [("s1", ["coins": 30, "gems": 2] as Grants), ("s2", ["coins": 25])] {
                _ = try await store.spend(
                    SpendRequest(
                        playerId: "vera", idempotencyKey: key, items: items, reason: "shop \(key)", actor: "game"))
            }

            let wallet = try await store.wallet(playerId: "vera")
            let summary = PlayerSummary(
                totals: try await store.playerTotals(playerId: "vera"), wallet: wallet,
                manualEntries: try await store.newestManualEntries(playerId: "vera", limit: 200),
                listPrice: Self.listPrice)
            let reference = RowByRowSummary(
                entries: try await store.ledgerEntries(playerId: "vera"), wallet: wallet,
                purchases: try await store.purchases(playerId: "vera"))
            #expect(summary.items == reference.items)
            #expect(summary.items.map(\.item) == ["coins", "gems", "tickets"])
            #expect(summary.manualGrants == reference.manualGrants)
            #expect(summary.manualGrantCount == 2 && reference.manualGrants.count == 2)
            #expect(summary.spendCount == 2 && reference.spendCount == 2)
            #expect(summary.purchaseCount == 9 && reference.purchaseCount == 9)
            #expect(summary.refundCount == reference.refundCount && summary.refundCount == 6)
            #expect(summary.unpricedCount == 2 && reference.unpricedCount == 2)
            #expect(ConsoleMoney.total(summary.paid) == ConsoleMoney.total(reference.paid))
            #expect(ConsoleMoney.total(summary.refunded) == ConsoleMoney.total(reference.refunded))
            #expect(ConsoleMoney.total(summary.net) == ConsoleMoney.total(reference.paid + reference.refunded))
            #expect(ConsoleMoney.total(summary.paid) == "68.00 CNY · 1,200 JPY · 18.93 USD")
        }
    }

    /// What the player page computed before its sums moved into the database: every entry
    /// and purchase of the player, added up one by one.
    struct RowByRowSummary {
        var items: [PlayerSummary.ItemLine]
        var manualGrants: [PlayerSummary.Posting]
        var spendCount: Int
        var purchaseCount: Int
        var refundCount: Int
        var paid: [ConsoleMoney]
        var refunded: [ConsoleMoney]
        var unpricedCount: Int

        init(entries: [LedgerEntry], wallet: [String: Int64], purchases: [Purchase]) {
            var lines = Dictionary(
                uniqueKeysWithValues: wallet.map { ($0.key, PlayerSummary.ItemLine(item: $0.key, balance: $0.value)) })
            var manual: [PlayerSummary.Posting] = []
            var spent: [PlayerSummary.Posting] = []
            for entry in entries {
                var line = lines[entry.item] ?? PlayerSummary.ItemLine(item: entry.item)
                switch entry.kind {
                case .grant: line.bought &+= entry.amount
                case .refund, .refundReversed: line.refunded &+= entry.amount
                case .spend:
                    line.spent &+= entry.amount
                    PlayerSummary.post(entry, into: &spent)
                case .manual:
                    line.granted &+= entry.amount
                    PlayerSummary.post(entry, into: &manual)
                }
                lines[entry.item] = line
            }
            items = lines.values.sorted { $0.item < $1.item }
            manualGrants = manual
            spendCount = spent.count
            purchaseCount = purchases.count
            let refundedPurchases = purchases.filter { $0.refundedShare > 0 }
            refundCount = refundedPurchases.count
            let priced = purchases.map { PlayerSummaryTotalsTests.listPrice($0.productId, $0.quantity) }
            paid = priced.compactMap { $0 }
            unpricedCount = priced.count - paid.count
            refunded = refundedPurchases.compactMap { purchase in
                PlayerSummaryTotalsTests.listPrice(purchase.productId, purchase.quantity).map {
                    PlayerSummary.refundedMoney($0, share: purchase.refundedShare)
                }
            }
        }
    }
}
