/// One bar of a chart: what it stands for, its size, and the value written beside it.
struct ChartBar: Sendable, Hashable {
    /// The category (a day, a bucket, a source); outside text, escaped when drawn.
    var label: String
    /// The bar's length.
    var value: Double
    /// The value as text, drawn beside the bar so the chart reads without colour.
    var valueLabel: String

    /// A bar of a count.
    init(label: String, count: Int) {
        self.label = label
        self.value = Double(count)
        self.valueLabel = String(count)
    }

    /// A bar with its own value text.
    init(label: String, value: Double, valueLabel: String) {
        self.label = label
        self.value = value
        self.valueLabel = valueLabel
    }
}

/// What every chart says of itself: its element id, and the title, description and axis
/// names readers (and screen readers) see. All outside text, escaped when drawn.
struct ChartText: Sendable, Hashable {
    /// The `id` of the `svg` element.
    var id: String
    /// The `<title>`.
    var title: String
    /// The `<desc>`: what the chart shows, in a sentence.
    var description: String
    /// The category axis's name.
    var categoryAxis: String
    /// The value axis's name.
    var valueAxis: String
    /// What the chart says across its plot when no bar has a value ("none"); nil says
    /// nothing.
    var emptyText: String? = nil

    /// The text drawn centred at (`x`, `y`) when no bar of `bars` has a value, else nothing.
    func emptyMark(_ bars: [ChartBar], x: Double, y: Double) -> String {
        guard let emptyText, bars.allSatisfy({ $0.value == 0 }) else { return "" }
        return "<text class=\"none\" x=\"\(SVGText.number(x))\" y=\"\(SVGText.number(y))\" "
            + "text-anchor=\"middle\" font-size=\"18\" fill=\"#5b6570\">\(SVGText.escape(emptyText))</text>"
    }

    /// The opening of the `svg` element, its `<title>` and `<desc>`.
    func opening(width: Double, height: Double) -> String {
        let id = SVGText.escape(self.id)
        return """
            <svg id="\(id)" class="chart" viewBox="0 0 \(SVGText.number(width)) \(SVGText.number(height))" \
            role="img" aria-labelledby="\(id)-title \(id)-desc" preserveAspectRatio="xMidYMid meet" \
            xmlns="http://www.w3.org/2000/svg">\
            <title id="\(id)-title">\(SVGText.escape(title))</title>\
            <desc id="\(id)-desc">\(SVGText.escape(description))</desc>
            """
    }
}
