/// A vertical bar chart drawn as SVG on the server (per-day counts, the latency histogram):
/// sized by its `viewBox` so it scales to the page, with a title and description, axis
/// names, category labels and each bar's value as text, so it reads without colour.
struct BarChart: Sendable, Hashable {
    var text: ChartText
    var bars: [ChartBar]
    /// Draw the category label of every n-th bar only (long series of days); 1 draws all.
    var labelEvery: Int = 1

    static let width = 720.0
    static let height = 260.0
    private static let left = 44.0
    private static let right = 12.0
    private static let top = 22.0
    private static let bottom = 56.0

    /// The chart's markup; every outside string in it is escaped.
    func svg() -> String {
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let baseline = Self.top + plotHeight
        let maximum = max(bars.map(\.value).max() ?? 0, 1)
        let slot = bars.isEmpty ? plotWidth : plotWidth / Double(bars.count)
        let barWidth = max(slot * 0.7, 1)
        var parts = [text.opening(width: Self.width, height: Self.height)]
        parts.append(
            "<g class=\"axes\" stroke=\"#555\" stroke-width=\"1\">"
                + line(Self.left, baseline, Self.left + plotWidth, baseline)
                + line(Self.left, Self.top, Self.left, baseline) + "</g>")
        parts.append(
            "<text class=\"tick\" x=\"\(SVGText.number(Self.left - 4))\" y=\"\(SVGText.number(Self.top + 4))\" "
                + "text-anchor=\"end\" font-size=\"10\">\(SVGText.escape(Self.tick(maximum)))</text>"
                + "<text class=\"tick\" x=\"\(SVGText.number(Self.left - 4))\" y=\"\(SVGText.number(baseline))\" "
                + "text-anchor=\"end\" font-size=\"10\">0</text>")
        parts.append("<g class=\"bars\">")
        for (index, bar) in bars.enumerated() {
            let height = plotHeight * max(bar.value, 0) / maximum
            let x = Self.left + slot * Double(index) + (slot - barWidth) / 2
            let center = x + barWidth / 2
            let label = SVGText.escape(bar.label)
            let value = SVGText.escape(bar.valueLabel)
            parts.append(
                "<g class=\"bar\"><rect x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(baseline - height))\" "
                    + "width=\"\(SVGText.number(barWidth))\" height=\"\(SVGText.number(height))\" fill=\"#3b6ea8\">"
                    + "<title>\(label): \(value)</title></rect>")
            if bar.value > 0 || bars.count <= 12 {
                parts.append(
                    "<text class=\"value\" x=\"\(SVGText.number(center))\" "
                        + "y=\"\(SVGText.number(baseline - height - 3))\" text-anchor=\"middle\" "
                        + "font-size=\"\(bars.count > 12 ? 8 : 11)\">\(value)</text>")
            }
            if index % max(labelEvery, 1) == 0 || index == bars.count - 1 {
                parts.append(
                    "<text class=\"category\" x=\"\(SVGText.number(center))\" "
                        + "y=\"\(SVGText.number(baseline + 14))\" text-anchor=\"middle\" font-size=\"10\">"
                        + "\(label)</text>")
            }
            parts.append("</g>")
        }
        parts.append("</g>")
        parts.append(text.emptyMark(bars, x: Self.left + plotWidth / 2, y: Self.top + plotHeight / 2))
        parts.append(
            "<text class=\"axis-label\" x=\"\(SVGText.number(Self.left + plotWidth / 2))\" "
                + "y=\"\(SVGText.number(Self.height - 8))\" text-anchor=\"middle\" font-size=\"11\">"
                + "\(SVGText.escape(text.categoryAxis))</text>"
                + "<text class=\"axis-label\" x=\"4\" y=\"12\" font-size=\"11\">\(SVGText.escape(text.valueAxis))</text>"
        )
        parts.append("</svg>")
        return parts.joined()
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
        "<line x1=\"\(SVGText.number(x1))\" y1=\"\(SVGText.number(y1))\" "
            + "x2=\"\(SVGText.number(x2))\" y2=\"\(SVGText.number(y2))\"/>"
    }

    /// The top of the value axis as text.
    static func tick(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : SVGText.number(value)
    }
}
