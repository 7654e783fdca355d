import Foundation
import Ledger
import Testing

@testable import SupportConsole

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The overview's statistics and server-made SVG: median and p99 by their definitions,
/// log-scale buckets, UTC days, and charts that escape every outside string.
struct ConsolePagesChartTests {
    @Test func medianAndP99OfKnownLatencies() {
        // 1…100 seconds: the median is 50.5 (the mean of the 50th and 51st), p99 the 99th.
        let hundred = LatencyStatistics(latencies: (1...100).map(Double.init).shuffled())
        #expect(hundred.count == 100)
        #expect(hundred.median == 50.5)
        #expect(hundred.p99 == 99)
        // Odd count: the middle one; p99 of few values is the largest.
        let five = LatencyStatistics(latencies: [9, 0.2, 3_700, 0.5, 30])
        #expect(five.median == 9)
        #expect(five.p99 == 3_700)
        #expect(five.histogram == [2, 1, 1, 0, 0, 1])
        // Nearest rank: with 1,000 values p99 is the 990th.
        let thousand = LatencyStatistics(latencies: (1...1_000).map(Double.init))
        #expect(thousand.p99 == 990)
        #expect(LatencyStatistics.percentile([], 99) == nil)
        let none = LatencyStatistics(latencies: [])
        #expect(none.median == nil && none.p99 == nil && none.histogram == [0, 0, 0, 0, 0, 0])
    }

    @Test func bucketsAreLogScale() {
        let cases: [(Double, LatencyStatistics.Bucket)] = [
            (-2, .underOneSecond), (0.999, .underOneSecond), (1, .underTenSeconds), (59.9, .underOneMinute),
            (60, .underTenMinutes), (599, .underTenMinutes), (600, .underOneHour), (3_600, .oneHourOrMore),
            (86_400, .oneHourOrMore),
        ]
        for (seconds, bucket) in cases { #expect(LatencyStatistics.Bucket(seconds) == bucket, "\(seconds)") }
        #expect(
            LatencyStatistics.Bucket.allCases.map(\.label) == ["<1 s", "<10 s", "<1 min", "<10 min", "<1 h", "≥1 h"])
        #expect(LatencyStatistics.format(0.25) == "250 ms")
        #expect(LatencyStatistics.format(12.34) == "12.3 s")
        #expect(LatencyStatistics.format(245) == "4 min 5 s")
        #expect(LatencyStatistics.format(7_380) == "2 h 3 min")
    }

    @Test func dailyCountsUseUTCDays() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-24T04:00:00Z"))
        let dates = try [
            "2026-11-24T00:00:00Z", "2026-11-23T23:59:59Z", "2026-11-23T00:00:01Z", "2026-11-22T12:00:00Z",
            "2026-10-01T00:00:00Z",
        ].map { try #require(ISO8601DateFormatter().date(from: $0)) }
        let days = DailyCounts.count(dates, days: 3, endingAt: now)
        #expect(days.map(\.count) == [1, 2, 1])
        #expect(days.map { DailyCounts.label($0.day) } == ["11-22", "11-23", "11-24"])
        // Counts the ledger kept per day (delivery_days) add up to the same days.
        let kept = DailyCounts.sum(dates.map { (day: DailyCounts.dayNumber($0), count: 3) }, days: 3, endingAt: now)
        #expect(kept.map(\.count) == [3, 6, 3])
        #expect(kept.map(\.day) == days.map(\.day))
    }

    @Test func dayNumbersAreTheCalendarsUTCDays() throws {
        let epoch = Date(timeIntervalSince1970: 0)
        let instants = try [
            "2026-11-24T00:00:00Z", "2026-11-23T23:59:59Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
            "1900-03-01T12:00:00Z", "2400-02-29T23:00:00Z",
        ].map { try #require(ISO8601DateFormatter().date(from: $0)) }
        // A millisecond either side of each instant, as the ledger stores times.
        for date in instants.flatMap({ [$0.addingTimeInterval(-0.001), $0, $0.addingTimeInterval(0.001)] }) {
            let days = DailyCounts.calendar.dateComponents(
                [.day], from: epoch, to: DailyCounts.calendar.startOfDay(for: date)
            ).day
            #expect(DailyCounts.dayNumber(date) == days, "\(date.timeIntervalSince1970)")
        }
        #expect(DailyCounts.dayNumber(.distantFuture) > DailyCounts.dayNumber(Date()))
        #expect(DailyCounts.dayNumber(.distantPast) < 0)
    }

    @Test func chartsEscapeOutsideStrings() {
        let hostile = #"<script>alert("x")</script>&'"#
        let text = ChartText(
            id: "deliveries-by-source", title: hostile, description: hostile, categoryAxis: hostile, valueAxis: hostile)
        let bars = [ChartBar(label: hostile, count: 3), ChartBar(label: "admin_lookup", count: 1)]
        for svg in [BarChart(text: text, bars: bars).svg(), HorizontalBarChart(text: text, bars: bars).svg()] {
            #expect(!svg.contains("<script"))
            #expect(!svg.contains(#"("x")"#))
            #expect(svg.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"))
            #expect(svg.hasPrefix(#"<svg id="deliveries-by-source" class="chart" viewBox="0 0 720 "#))
            #expect(svg.contains("<title id=\"deliveries-by-source-title\">"))
            #expect(svg.contains("<desc id=\"deliveries-by-source-desc\">"))
            #expect(svg.contains(">3</text>"), "values are written as text")
            #expect(svg.hasSuffix("</svg>"))
            // Every tag opened is closed: the markup parses as XML.
            #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(svg)")
        }
    }

    @Test func theOverviewPageShowsChartsAndFigures() async throws {
        try await ConsoleFixture.withPages { fixture in
            _ = try await fixture.deliveredPurchase(to: "alice")
            let viewer = try await fixture.signedIn("vera", role: .viewer)
            let overview = try await viewer.get("/console/overview")
            #expect(overview.status == 200, "\(overview)")
            for id in [
                "deliveries-per-day", "refunds-per-day", "delivery-latency", "deliveries-by-source",
            ] {
                #expect(overview.body.contains(#"<svg id="\#(id)""#), "\(id)")
            }
            for id in ["latency-median", "latency-p99"] {
                #expect(ConsoleAnswer.attribute("id", ofElementWithId: id, in: overview.body) == id, "\(id)")
            }
            #expect(overview.body.contains("App Store notification"), "the source is labelled")
            #expect(overview.body.contains(#"id="deliveries-total">1</span>"#), "counted in delivery_days")
            #expect(try await !fixture.audit("view_overview", actor: "vera").isEmpty)
        }
    }
}
