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

    @Test("the summary of synthetic totals: refunds net of reversals, grants grouped per posting, money per group")
    func summaryOfTotals() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func manual(_ id: Int64, _ item: String, _ amount: Int64, at seconds: Double, reason: String? = nil)
            -> LedgerEntry
        {
            LedgerEntry(
                id: id, playerId: "p", item: item, amount: amount, kind: .manual, transactionId: nil,
                reason: reason ?? "why \(seconds)", actor: "ann", balanceAfter: 0,
                createdAt: start.addingTimeInterval(seconds))
        }
        let totals = PlayerTotals(
            entries: [
                .init(item: "coins", kind: .grant, amount: 500), .init(item: "coins", kind: .refund, amount: -650),
                .init(item: "coins", kind: .refundReversed, amount: 500),
                .init(item: "coins", kind: .manual, amount: 25),
                .init(item: "gems", kind: .manual, amount: 5), .init(item: "coins", kind: .spend, amount: -60),
                .init(item: "gems", kind: .spend, amount: -2),
            ],
            purchases: [
                .init(productId: "coins500", quantity: 1, refundedShare: 30_000, count: 1),
                .init(productId: "coins500", quantity: 2, refundedShare: 0, count: 3),
                .init(productId: "free", quantity: 1, refundedShare: 100_000, count: 2),
            ],
            manualGrantCount: 5, spendCount: 2, orderCount: 7)
        // The newest two grants' entries, at one instant: their reasons tell them apart.
        let entries = [
            manual(5, "coins", 40, at: 10), manual(6, "gems", 5, at: 10),
            manual(7, "coins", -15, at: 10, reason: "another"),
        ]
        let summary = PlayerSummary(totals: totals, wallet: ["coins": 315, "gems": 3], manualEntries: entries) {
            $0 == "free" ? nil : ConsoleMoney(milliunits: 3_990 * Int64($1), currency: "USD")
        }
        let coins = PlayerSummary.ItemLine(
            item: "coins", bought: 500, refunded: -150, granted: 25, spent: -60, balance: 315)
        #expect(summary.items == [coins, PlayerSummary.ItemLine(item: "gems", granted: 5, spent: -2, balance: 3)])
        #expect(summary.items.allSatisfy { $0.bought + $0.refunded + $0.granted + $0.spent == $0.balance })
        #expect(summary.manualGrants.map(\.grants) == [["coins": 40, "gems": 5], ["coins": -15]])
        #expect(summary.manualGrantCount == 5 && summary.spendCount == 2)
        #expect(summary.purchaseCount == 6 && summary.refundCount == 3 && summary.unpricedCount == 2)
        // 3.99 + 3 × 7.98 paid; 30% of 3.99 (1.197) refunded.
        #expect(ConsoleMoney.total(summary.paid) == "27.93 USD")
        #expect(ConsoleMoney.total(summary.refunded) == "\u{2212}1.20 USD")
        #expect(ConsoleMoney.total(summary.net) == "26.73 USD")
    }
}
