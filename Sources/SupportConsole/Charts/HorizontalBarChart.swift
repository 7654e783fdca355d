/// A horizontal bar chart drawn as SVG on the server (deliveries by source): one row per
/// category with its name on the left and its value at the bar's end, so it reads without
/// colour; sized by its `viewBox`.
struct HorizontalBarChart: Sendable, Hashable {
    var text: ChartText
    var bars: [ChartBar]

    static let width = 720.0
    private static let rowHeight = 28.0
    private static let labelWidth = 190.0
    private static let valueWidth = 70.0
    private static let top = 24.0
    private static let bottom = 30.0

    /// The chart's markup; every outside string in it is escaped.
    func svg() -> String {
        let height = Self.top + Self.rowHeight * Double(max(bars.count, 1)) + Self.bottom
        let plotLeft = Self.labelWidth
        let plotWidth = Self.width - Self.labelWidth - Self.valueWidth
        let maximum = max(bars.map(\.value).max() ?? 0, 1)
        var parts = [text.opening(width: Self.width, height: height)]
        parts.append(
            "<text class=\"axis-label\" x=\"4\" y=\"14\" font-size=\"11\">\(SVGText.escape(text.categoryAxis))</text>"
                + "<text class=\"axis-label\" x=\"\(SVGText.number(plotLeft))\" y=\"14\" font-size=\"11\">"
                + "\(SVGText.escape(text.valueAxis))</text>")
        parts.append("<g class=\"bars\">")
        for (index, bar) in bars.enumerated() {
            let y = Self.top + Self.rowHeight * Double(index)
            let length = plotWidth * max(bar.value, 0) / maximum
            let middle = y + Self.rowHeight / 2 + 4
            let label = SVGText.escape(bar.label)
            let value = SVGText.escape(bar.valueLabel)
            parts.append(
                "<g class=\"bar\"><text class=\"category\" x=\"\(SVGText.number(plotLeft - 6))\" "
                    + "y=\"\(SVGText.number(middle))\" text-anchor=\"end\" font-size=\"11\">\(label)</text>"
                    + "<rect x=\"\(SVGText.number(plotLeft))\" y=\"\(SVGText.number(y + 5))\" "
                    + "width=\"\(SVGText.number(length))\" height=\"\(SVGText.number(Self.rowHeight - 10))\" "
                    + "fill=\"#3b6ea8\"><title>\(label): \(value)</title></rect>"
                    + "<text class=\"value\" x=\"\(SVGText.number(plotLeft + length + 4))\" "
                    + "y=\"\(SVGText.number(middle))\" font-size=\"11\">\(value)</text></g>")
        }
        parts.append("</g>")
        parts.append(
            text.emptyMark(bars, x: plotLeft + plotWidth / 2, y: Self.top + Self.rowHeight / 2 + 6))
        let axisY = Self.top + Self.rowHeight * Double(max(bars.count, 1)) + 2
        parts.append(
            "<line x1=\"\(SVGText.number(plotLeft))\" y1=\"\(SVGText.number(Self.top))\" "
                + "x2=\"\(SVGText.number(plotLeft))\" y2=\"\(SVGText.number(axisY))\" stroke=\"#555\"/>")
        parts.append("</svg>")
        return parts.joined()
    }
}
