import AppStoreModel
import Foundation
import Ledger
import Testing

@testable import SupportConsole

/// The player page's summary: what was bought, refunded and granted by hand adds up to each
/// balance of the wallet, with the money at the catalog's list price; refunds read in money
/// and share on their purchase; manual grants are in the purchase list.
@Suite(.serialized)
struct ConsolePagesSummaryTests {
    @Test("three packs bought, 30% of one and all of another refunded, 150 granted: the rows add up")
    func summaryExplainsTheWallet() async throws {
        try await ConsoleFixture.withPages { fixture in
            var paid: [String] = []
            for _ in 0..<3 { paid.append(try await fixture.deliveredPurchase(to: "carol").paid.transactionId) }
            try await fixture.emulator.refund(transactionId: paid[0], percentage: 30_000)
            try await fixture.emulator.refund(transactionId: paid[1])
            try await fixture.eventually("both refunds") {
                try await fixture.store.wallet(playerId: "carol")["coins"] == 300 - 30 - 100
            }
            let agent = try await fixture.signedIn("ann", role: .agent)
            let grant = [("item", "coins"), ("amount", "150"), ("reason", "ticket 4711"), ("confirmed", "1")]
            let granted = try await agent.submit(
                "/console/players/carol/grants", form: grant, from: "/console/players/carol")
            #expect(granted.status == 303, "\(granted)")
            #expect(try await fixture.store.wallet(playerId: "carol") == ["coins": 320])
            _ = try await fixture.store.spend(
                SpendRequest(
                    playerId: "carol", idempotencyKey: "shop-1", items: ["coins": 20], reason: "a sword",
                    actor: "game-server"))
            let wallet = try await fixture.store.wallet(playerId: "carol")
            #expect(wallet == ["coins": 300])

            let page = try await agent.get("/console/players/carol")
            let balance = try #require(wallet["coins"])
            #expect(
                page.body.contains(
                    #"<tr data-item="coins" data-bought="300" data-refunded="-130" data-granted="150" data-spent="-20" data-balance="\#(balance)""#
                ), "\(page.body)")
            let summary = try #require(page.body.range(of: #"<section id="summary">"#))
            let purchases = try #require(page.body.range(of: #"<section id="purchases">"#))
            #expect(summary.lowerBound < purchases.lowerBound, "the summary comes first")
            // List prices: 3 × 0.99 USD paid; 30% of 0.99 (0.297) and all of 0.99 refunded.
            #expect(page.body.contains("2.97 USD"))
            #expect(page.body.contains("\u{2212}1.29 USD"))
            #expect(page.body.contains("1.68 USD"), "paid less refunds")
            #expect(page.body.contains("3 purchases"))
            #expect(page.body.contains("2 purchases refunded"))
            #expect(page.body.contains("1 manual grant"))
            #expect(page.body.contains("1 spend"))
            // The refunds on their purchase rows, in money and share.
            #expect(page.body.contains(#"data-transaction-id="\#(paid[0])" data-source="notification""#))
            #expect(page.body.contains(#"data-refunded="30000""#))
            #expect(page.body.contains("\u{2212}0.30 USD (30%)"))
            #expect(page.body.contains("\u{2212}0.99 USD (100%)"))
            #expect(!page.body.contains(#"id="refunds""#), "refunds are not repeated in a section of their own")
            // The manual grant in the purchase list: who, why, how much.
            let row = try #require(page.body.range(of: #"<tr data-kind="manual_grant""#))
            let rowText = page.body[row.lowerBound...].prefix(while: { $0 != "\n" })
            let rowEnd = try #require(rowText.range(of: "</tr>"))
            let grantRow = rowText[..<rowEnd.lowerBound]
            #expect(grantRow.contains("ann") && grantRow.contains("ticket 4711") && grantRow.contains("+150"))
            // The spend too: the game's key, who, why, how much.
            let spend = try #require(page.body.range(of: #"<tr data-kind="spend" data-spend-key="shop-1""#))
            let spendText = page.body[spend.lowerBound...].prefix(while: { $0 != "\n" })
            let spendRow = spendText[..<(try #require(spendText.range(of: "</tr>"))).lowerBound]
            #expect(spendRow.contains("game-server") && spendRow.contains("a sword") && spendRow.contains("\u{2212}20"))
            // The timeline is collapsed; a page of it opens it.
            #expect(page.body.contains(#"<details class="timeline-details">"#))
            #expect(
                !page.body.contains(#"<a href="/console/players/carol">carol</a></span>"#), "no row names carol again")
            let paged = try await agent.get("/console/players/carol?timeline=open")
            #expect(paged.body.contains(#"<details class="timeline-details" open>"#))
        }
    }

    @Test("the summary of synthetic entries: refunds net of reversals, grants and spends grouped per posting")
    func summaryOfEntries() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func entry(_ id: Int64, _ item: String, _ amount: Int64, _ kind: LedgerEntryKind, at seconds: Double = 0)
            -> LedgerEntry
        {
            LedgerEntry(
                id: id, playerId: "p", item: item, amount: amount, kind: kind, transactionId: nil,
                reason: kind == .manual || kind == .spend ? "why \(seconds)" : nil,
                actor: kind == .manual ? "ann" : kind == .spend ? "game" : nil,
                balanceAfter: 0, createdAt: start.addingTimeInterval(seconds))
        }
        let entries = [
            entry(1, "coins", 500, .grant), entry(2, "coins", -500, .refund), entry(3, "coins", 500, .refundReversed),
            entry(4, "coins", -150, .refund), entry(5, "coins", 40, .manual, at: 10),
            entry(6, "gems", 5, .manual, at: 10), entry(7, "coins", -15, .manual, at: 20),
            entry(8, "coins", -30, .spend, at: 30), entry(9, "gems", -2, .spend, at: 30),
            entry(10, "coins", -30, .spend, at: 30),
        ]
        func purchase(_ id: String, share: Int) -> Purchase {
            Purchase(
                store: .appStore,
                transactionId: id, originalTransactionId: id, playerId: "p", orderId: nil, productId: "coins500",
                quantity: 1, environment: .sandbox, source: .notification, flags: [], grants: ["coins": 500],
                status: share == 100_000 ? .refunded : .delivered, purchaseDate: start, deliveredAt: start,
                refundedShare: share, refundedAt: share > 0 ? start : nil)
        }
        let purchases = [purchase("t1", share: 30_000), purchase("t2", share: 0)]
        let summary = PlayerSummary(entries: entries, wallet: ["coins": 315, "gems": 3], purchases: purchases) {
            $0.transactionId == "t2" ? nil : ConsoleMoney(milliunits: 3_990, currency: "USD")
        }
        let coins = PlayerSummary.ItemLine(
            item: "coins", bought: 500, refunded: -150, granted: 25, spent: -60, balance: 315)
        #expect(summary.items == [coins, PlayerSummary.ItemLine(item: "gems", granted: 5, spent: -2, balance: 3)])
        #expect(summary.items.allSatisfy { $0.bought + $0.refunded + $0.granted + $0.spent == $0.balance })
        #expect(summary.manualGrants.map(\.grants) == [["coins": 40, "gems": 5], ["coins": -15]])
        // Two spends in one millisecond, same actor and reason: an item that comes again
        // starts the next one.
        #expect(summary.spends.map(\.grants) == [["coins": -30, "gems": -2], ["coins": -30]])
        #expect(summary.purchaseCount == 2 && summary.refundCount == 1 && summary.unpricedCount == 1)
        #expect(ConsoleMoney.total(summary.paid) == "3.99 USD")
        #expect(ConsoleMoney.total(summary.refunded) == "\u{2212}1.20 USD")
        #expect(ConsoleMoney.total(summary.net) == "2.79 USD")
    }
}
