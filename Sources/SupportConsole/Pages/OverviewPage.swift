import Foundation
import Hummingbird
import Ledger

extension SupportPages {
    /// Days the overview covers.
    static var overviewDays: Int { 30 }
    /// The most refund and reversal events the overview reads (together; events of its 30
    /// days, read by `history_events_by_type`).
    static var overviewEventLimit: Int { 100_000 }

    /// `GET /console/overview`: the owed count, revenue per day (list price), deliveries,
    /// refunds and reversals per UTC day over the last 30 days, the time from charge to
    /// delivery (median and p99 within 2.5%, and a log-scale histogram, from the ledger's counts
    /// per fine bucket), deliveries by source, and, when a
    /// webhook is configured, its outbox backlog and failures. Charts are SVG made here,
    /// every outside string escaped.
    func overviewPage(_ request: Request, _ context: some RequestContext, _ caller: ConsoleCaller) async throws
        -> ConsolePage
    {
        let now = Date()
        let since =
            DailyCounts.calendar.date(
                byAdding: .day, value: -(Self.overviewDays - 1), to: DailyCounts.calendar.startOfDay(for: now)) ?? now
        let activity = try await store.deliveryActivity(since: since, limit: Self.overviewEventLimit)
        let owed = try await store.owedCount(learnedBefore: now.addingTimeInterval(-settings.owedAfterSeconds))
        try await caller.audit(action: "view_overview")
        let latency = LatencyStatistics(counts: activity.latencies)
        let deliveriesPerDay = DailyCounts.sum(
            activity.deliveryDays.map { (day: $0.day, count: $0.deliveries) }, days: Self.overviewDays, endingAt: now)
        var values: [String: any Sendable] = [
            "deliveriesChart": perDayChart("deliveries-per-day", "chart_deliveries", deliveriesPerDay, caller),
            "refundsChart": perDayChart(
                "refunds-per-day", "chart_refunds",
                DailyCounts.count(activity.refunds, days: Self.overviewDays, endingAt: now), caller),
            "reversalsChart": perDayChart(
                "reversals-per-day", "chart_reversals",
                DailyCounts.count(activity.reversals, days: Self.overviewDays, endingAt: now), caller),
            "latencyChart": latencyChart(latency, caller),
            "sourceChart": sourceChart(activity.deliveryDays, caller),
            "deliveries": ConsoleFormat.count(activity.deliveryDays.reduce(0) { $0 &+ $1.deliveries }),
            "refunds": ConsoleFormat.count(activity.refunds.count),
            "reversals": ConsoleFormat.count(activity.reversals.count),
            "latencyMedian": latency.median.map(LatencyStatistics.format) ?? "–",
            "latencyP99": latency.p99.map(LatencyStatistics.format) ?? "–",
            "owed": ConsoleFormat.count(owed),
            "hasOwed": owed > 0,
            "since": ConsoleFormat.day(since),
        ]
        if server.configuration.webhook != nil {
            let webhook: [String: any Sendable] = [
                "outboxBacklog": ConsoleFormat.count(activity.outboxBacklog),
                "webhookFailures": ConsoleFormat.count(activity.webhookFailures),
                "hasWebhookFailures": activity.webhookFailures > 0,
            ]
            values["webhook"] = webhook
        }
        values.merge(revenueValues(activity, now: now, caller)) { $1 }
        return ConsolePage(template: "overview", titleKey: "title_overview", values: values)
    }

    /// A bar per UTC day of the last 30 with its count.
    private func perDayChart(_ id: String, _ key: String, _ days: [(day: Date, count: Int)], _ caller: ConsoleCaller)
        -> String
    {
        BarChart(
            text: chartText(id, key, caller),
            bars: days.map { ChartBar(label: DailyCounts.label($0.day), count: $0.count) }, labelEvery: 5
        ).svg()
    }

    /// The histogram of the time from charge to delivery.
    private func latencyChart(_ latency: LatencyStatistics, _ caller: ConsoleCaller) -> String {
        BarChart(
            text: chartText("delivery-latency", "chart_latency", caller),
            bars: zip(LatencyStatistics.Bucket.allCases, latency.histogram).map {
                ChartBar(label: $0.label, count: $1)
            }
        ).svg()
    }

    /// Deliveries by source, most first, each labelled with the source's name.
    private func sourceChart(_ days: [DeliveryDayCount], _ caller: ConsoleCaller) -> String {
        var counts: [String: Int] = [:]
        for day in days { counts[day.source.rawValue, default: 0] &+= day.deliveries }
        let bars = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map {
            ChartBar(label: label("source_", $0.key, caller), count: $0.value)
        }
        return HorizontalBarChart(text: chartText("deliveries-by-source", "chart_sources", caller), bars: bars).svg()
    }

    /// A chart's title, description and axis names from the strings `<key>_title`,
    /// `<key>_desc`, `<key>_x`, `<key>_y`, saying "none" when it has nothing to show.
    func chartText(_ id: String, _ key: String, _ caller: ConsoleCaller) -> ChartText {
        ChartText(
            id: id, title: text("\(key)_title", caller), description: text("\(key)_desc", caller),
            categoryAxis: text("\(key)_x", caller), valueAxis: text("\(key)_y", caller),
            emptyText: text("chart_none", caller))
    }
}
