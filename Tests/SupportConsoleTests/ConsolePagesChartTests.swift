import Foundation
import Ledger
import LedgerTestSupport
import Testing

@testable import SupportConsole

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The overview's statistics and server-made SVG: median and p99 by their definitions,
/// log-scale buckets, UTC days, and charts that escape every outside string.
struct ConsolePagesChartTests {
    @Test func medianAndP99OfKnownLatencies() throws {
        // 1…100 seconds: the median is 50.5 (the mean of the 50th and 51st), p99 the 99th,
        // each within 2.5% (the middle of its bucket).
        let hundred = LatencyStatistics(counts: LatencyReference.counts((1...100).map { $0 * 1_000 }.shuffled()))
        #expect(hundred.count == 100)
        #expect(abs(try #require(hundred.median) - 50.5) <= 50.5 * 0.025)
        #expect(abs(try #require(hundred.p99) - 99) <= 99 * 0.025)
        // Odd count: the middle one; p99 of few values is the largest. Buckets of one
        // millisecond give their millisecond; the last bucket its lower bound.
        let five = LatencyStatistics(counts: LatencyReference.counts([9, 2, 4_000_000_000, 5, 30_000]))
        #expect(five.median == 0.009)
        #expect(five.p99 == 3_600_000)
        #expect(five.histogram == [3, 0, 1, 0, 0, 1])
        // Nearest rank: with 1,000 values p99 is the 990th (its bucket's middle).
        let thousand = LatencyStatistics(counts: LatencyReference.counts((1...1_000).map { $0 * 1_000 }))
        #expect(abs(try #require(thousand.p99) - 990) <= 990 * 0.025)
        #expect(thousand.count == 1_000)
        let none = LatencyStatistics(counts: [])
        #expect(none.median == nil && none.p99 == nil && none.histogram == [0, 0, 0, 0, 0, 0])
        #expect(LatencyStatistics(counts: [DeliveryLatencyCount(lowerBound: 1_000, deliveries: 0)]).median == nil)
    }

    /// The bounds: ascending from 0, each bucket at most 10^(1/48) as wide (or one
    /// millisecond), the coarse histogram's bounds among them, and every bucket's middle
    /// within 2.5% of each of its milliseconds.
    @Test func fineBucketsHoldTheCoarseOnesAndTheirMiddleIsWithinTheResolution() {
        let bounds = DeliveryLatencyCount.bucketBounds
        #expect(bounds.first == 0 && bounds.last == DeliveryLatencyCount.largestBound)
        #expect(bounds == bounds.sorted() && Set(bounds).count == bounds.count)
        for coarse in LatencyStatistics.Bucket.allCases.compactMap(\.upperBound) {
            #expect(bounds.contains(Int64(coarse * 1_000)), "\(coarse) s")
        }
        for (lower, upper) in zip(bounds.dropLast(), bounds.dropFirst()) {
            #expect(upper - lower == 1 || Double(upper) <= Double(lower) * pow(10, 1 / 48) + 1, "\(lower)–\(upper)")
            let middle = LatencyStatistics.middle(ofBucketFrom: lower) * 1_000
            for value in [lower, upper - 1] {
                #expect(abs(middle - Double(value)) <= Double(value) * 0.025, "\(value) ms in \(lower)–\(upper)")
            }
        }
    }

    /// Against the overview's computation before buckets (``LatencyReference``), over
    /// latencies spread on a log scale (below the last bound, 1,000 hours: from there on a
    /// time counts as 1,000 hours, `medianAndP99OfKnownLatencies`) and on every bound of the
    /// coarse histogram and beside it (some negative, from clocks that differ: the page
    /// shows those as 0 ms either way, and the ledger counts them as 0): the histogram is the
    /// same, median and p99 within 2.5%.
    @Test(arguments: [1, 2, 3, 4, 1_000, 1_001])
    func bucketedStatisticsMatchTheLatenciesCountedOneByOne(count: Int) throws {
        var random = SeededGenerator(seed: UInt64(count))
        var milliseconds: [Int64] = (0..<count).map { _ in
            Int64(pow(10, Double(random.next() % 1_000_000) / 1_000_000 * 9.5).rounded()) - 50
        }
        if count > 4 {
            for coarse in LatencyStatistics.Bucket.allCases.compactMap(\.upperBound) {
                let bound = Int64(coarse * 1_000)
                milliseconds += [bound - 1, bound, bound + 1]
            }
        }
        let statistics = LatencyStatistics(counts: LatencyReference.counts(milliseconds))
        let reference = LatencyReference(milliseconds: milliseconds.map { max($0, 0) })
        #expect(statistics.histogram == reference.histogram)
        #expect(statistics.count == milliseconds.count)
        let pairs: [(bucketed: TimeInterval?, exact: TimeInterval?)] = [
            (statistics.median, reference.median), (statistics.p99, reference.p99),
        ]
        for pair in pairs {
            let bucketed: TimeInterval = try #require(pair.bucketed)
            let exact: TimeInterval = try #require(pair.exact)
            #expect(abs(bucketed - exact) <= exact * 0.025, "\(bucketed) for \(exact)")
        }
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
            #expect(
                !overview.body.contains(#"id="latency-median">–</span>"#), "the latency counted in delivery_latencies")
            #expect(
                overview.body.contains(
                    #"<p class="hint" id="latency-resolution">Median and 99th percentile to within 2.5%"#))
            #expect(try await !fixture.audit("view_overview", actor: "vera").isEmpty)
            await viewer.setCookie("sk_lang", "zh-Hans")
            let chinese = try await viewer.get("/console/overview")
            #expect(chinese.body.contains(#"<p class="hint" id="latency-resolution">中位数和第 99 百分位的误差在 2.5% 以内"#))
        }
    }
}
