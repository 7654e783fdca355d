import Foundation
import Ledger

extension SupportPages {
    /// The overview's revenue values: a chart of net revenue per day for each currency (one
    /// chart saying "none" when nothing is priced), the days with money in a table, newest
    /// first, the period's totals, and how many purchases the catalog names no price for.
    func revenueValues(_ activity: DeliveryActivity, now: Date, _ caller: ConsoleCaller) -> [String: any Sendable] {
        let currencies = Set(server.configuration.catalog.products.compactMap { $0.price == nil ? nil : $0.currency })
        let (revenue, unpriced) = DailyRevenue.count(
            activity, days: Self.overviewDays, endingAt: now, currencies: currencies,
            price: { listPrice($0, quantity: $1) })
        let charts = revenue.isEmpty ? [revenueChart(nil, caller)] : revenue.map { revenueChart($0, caller) }
        var rows: [(currency: String, day: DailyRevenue.Day)] = []
        for currency in revenue {
            for day in currency.days where day.gross != 0 || day.refunded != 0 {
                rows.append((currency: currency.currency, day: day))
            }
        }
        rows.sort { $0.day.day != $1.day.day ? $0.day.day > $1.day.day : $0.currency < $1.currency }
        var values: [String: any Sendable] = [
            "revenueCharts": charts,
            "revenueRows": rows.map { revenueRow(ConsoleFormat.day($0.day.day), $0.currency, $0.day) },
            "revenueTotals": revenue.map { revenueRow(text("revenue_total", caller), $0.currency, $0.total) },
            "revenueEmpty": rows.isEmpty,
        ]
        if unpriced > 0 { values["revenueUnpriced"] = ConsoleFormat.count(unpriced) }
        return values
    }

    /// One line of the revenue table.
    private func revenueRow(_ label: String, _ currency: String, _ day: DailyRevenue.Day) -> [String: any Sendable] {
        [
            "label": label, "currency": currency,
            "gross": ConsoleMoney(milliunits: day.gross, currency: currency).formatted,
            "refunded": ConsoleMoney(milliunits: day.refunded, currency: currency).formatted,
            "net": ConsoleMoney(milliunits: day.net, currency: currency).formatted,
            "negative": day.net < 0,
        ]
    }

    /// The chart of one currency's net revenue per day, each bar labelled with its amount;
    /// with no currency, an empty chart that says "none".
    private func revenueChart(_ revenue: DailyRevenue?, _ caller: ConsoleCaller) -> String {
        var labels = chartText("revenue-per-day" + (revenue.map { "-" + $0.currency } ?? ""), "chart_revenue", caller)
        if let revenue { labels.valueAxis += " (\(revenue.currency))" }
        let bars =
            revenue?.days.map { day in
                ChartBar(
                    label: DailyCounts.label(day.day), value: Double(day.net) / 1_000,
                    valueLabel: ConsoleMoney(milliunits: day.net, currency: revenue?.currency ?? "").number)
            } ?? []
        return BarChart(text: labels, bars: bars, labelEvery: 5).svg()
    }
}
