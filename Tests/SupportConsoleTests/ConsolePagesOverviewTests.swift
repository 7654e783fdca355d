import Foundation
import Ledger
import PurchaseServer
import Testing

@testable import SupportConsole

/// The overview's owed count, revenue at list price, empty charts and webhook figures.
struct ConsolePagesOverviewTests {
    private static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test func revenueCountsListPricesPerUTCDayAndCurrency() throws {
        let now = try Self.date("2026-11-24T04:00:00Z")
        let prices: [String: ConsoleMoney] = [
            "coins": ConsoleMoney(milliunits: 990, currency: "USD"),
            "gems": ConsoleMoney(milliunits: 6_000, currency: "CNY"),
        ]
        func day(_ text: String) throws -> Int { DeliveryDayCount.day(try Self.date(text)) }
        let activity = DeliveryActivity(
            deliveryDays: [], latencies: [],
            purchaseDays: [
                .init(day: try day("2026-10-01T00:00:00Z"), productId: "coins", quantity: 5, purchases: 1),
                .init(day: try day("2026-11-22T08:00:00Z"), productId: "gems", quantity: 1, purchases: 1),
                .init(day: try day("2026-11-23T23:59:59Z"), productId: "coins", quantity: 2, purchases: 1),
                .init(day: try day("2026-11-24T00:00:00Z"), productId: "coins", quantity: 1, purchases: 1),
                .init(day: try day("2026-11-24T01:00:00Z"), productId: "free", quantity: 1, purchases: 1),
            ],
            refundDays: [
                // Two purchases at a third: each rounded down (659.99 to 659), then added up.
                .init(
                    day: try day("2026-11-23T10:00:00Z"), productId: "coins", quantity: 2, refundedShare: 33_333,
                    purchases: 2),
                .init(
                    day: try day("2026-11-24T03:00:00Z"), productId: "coins", quantity: 2, refundedShare: 50_000,
                    purchases: 1),
            ], refunds: [], reversals: [], outboxBacklog: 0, webhookFailures: 0)
        let (revenue, unpriced) = DailyRevenue.count(
            activity, days: 3, endingAt: now, currencies: ["USD", "EUR"],
            price: { product, quantity in
                prices[product].map { ConsoleMoney(milliunits: $0.milliunits * Int64(quantity), currency: $0.currency) }
            })
        #expect(revenue.map(\.currency) == ["CNY", "EUR", "USD"], "the catalog's currencies and those sold in")
        #expect(unpriced == 1, "the product without a price; the one outside the days is not looked at")
        let usd = try #require(revenue.last)
        #expect(usd.days.map(\.gross) == [0, 1_980, 990])
        #expect(
            usd.days.map(\.refunded) == [0, 1_318, 990], "a third, then half of two coins packs, on the refunds' days")
        #expect(usd.days.map(\.net) == [0, 662, 0])
        #expect(usd.total.gross == 2_970 && usd.total.refunded == 2_308 && usd.total.net == 662)
        #expect(revenue[0].days.map(\.gross) == [6_000, 0, 0])
        #expect(revenue[1].days.allSatisfy { $0.gross == 0 && $0.refunded == 0 })
        #expect(ConsoleMoney(milliunits: -1_234_560, currency: "USD").number == "\u{2212}1,234.56")
    }

    @Test func emptyChartsSayNone() {
        let text = ChartText(
            id: "refunds-per-day", title: "t", description: "d", categoryAxis: "x", valueAxis: "y", emptyText: "none")
        let empty = [ChartBar(label: "11-24", count: 0)]
        for svg in [BarChart(text: text, bars: empty).svg(), HorizontalBarChart(text: text, bars: []).svg()] {
            #expect(svg.contains(#"<text class="none""#) && svg.contains(">none</text>"), "\(svg)")
        }
        let some = [ChartBar(label: "11-24", count: 1)]
        #expect(!BarChart(text: text, bars: some).svg().contains(#"class="none""#))
    }

    @Test func theOverviewCountsOwedAndRevenueAndLeavesOutTheWebhookWithoutOne() async throws {
        try await ConsoleFixture.withPages { fixture in
            _ = try await fixture.deliveredPurchase(to: "alice")
            let owed = try await fixture.pay(for: nil)
            try await fixture.eventually("the owed charge") {
                try await fixture.store.owedCount(learnedBefore: Date()) == 1
            }
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let overview = try await viewer.get("/console/overview")
            #expect(overview.status == 200, "\(overview)")
            #expect(overview.body.contains(#"id="owed-total">1</span>"#), "one owed: \(owed.transactionId)")
            #expect(overview.body.contains(#"<svg id="revenue-per-day-USD""#))
            #expect(overview.body.contains("<td class=\"amount\">0.99 USD</td>"), "coins100's list price")
            #expect(overview.body.contains("list price"))
            #expect(overview.body.contains(#"<text class="none""#), "the refunds chart has nothing to show")
            #expect(!overview.body.contains(#"id="outbox-backlog""#), "no webhook is configured")
            #expect(!overview.body.contains(#"id="webhook-failures""#))
        }
    }

    @Test func theWebhookFiguresAreExplainedWhenOneIsConfigured() async throws {
        let withWebhook: (inout ServerConfiguration) -> Void = {
            $0.webhook = WebhookSettings(url: URL(string: "http://apple.dev/test/webhook")!, secret: "webhook-secret")
        }
        try await ConsoleFixture.withPages(withWebhook) { fixture in
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let overview = try await viewer.get("/console/overview")
            #expect(overview.status == 200, "\(overview)")
            #expect(overview.body.contains(#"id="outbox-backlog">0</span>"#))
            #expect(overview.body.contains(#"id="outbox-backlog-hint""#))
            #expect(overview.body.contains("if the number keeps growing"))
            #expect(overview.body.contains(#"id="owed-total">0</span>"#))
            #expect(overview.body.contains(#"<svg id="revenue-per-day-USD""#))
            #expect(!overview.body.contains(#"id="revenue-table""#), "no money, no table")
        }
    }
}
