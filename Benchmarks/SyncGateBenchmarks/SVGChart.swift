import Foundation

/// Draws the run as one plain SVG: each latency distribution beside its baseline on a percentile scale,
/// and each release curve.
enum SVGChart {
    private static let panelWidth = 520.0
    private static let panelHeight = 320.0
    private static let columns = 2
    private static let left = 64.0
    private static let right = 16.0
    private static let top = 46.0
    private static let bottom = 46.0
    private static let subjectColor = "#1f6fb4"
    private static let baselineColor = "#e07b10"

    /// The SVG document for a report.
    static func render(_ report: BenchmarkReport) -> String {
        var panels: [(String, (Double, Double) -> String)] = []
        for result in report.scenarios where result.skipped == nil {
            for comparison in result.latencies {
                panels.append(("[\(result.number)] " + result.title, { latencyPanel(comparison, x: $0, y: $1) }))
            }
            for curve in result.curves {
                panels.append(("[\(result.number)] " + result.title, { curvePanel(curve, x: $0, y: $1) }))
            }
        }
        let rows = (panels.count + columns - 1) / columns
        let width = panelWidth * Double(columns)
        let height = 40 + panelHeight * Double(max(rows, 1))
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="12" y="24" font-size="15" font-weight="bold">\(escape(heading(report)))</text>

            """
        for (index, panel) in panels.enumerated() {
            let x = panelWidth * Double(index % columns)
            let y = 40 + panelHeight * Double(index / columns)
            svg += "<g>\n"
            svg += text(x + 12, y + 20, panel.0, size: 12, weight: "bold")
            svg += panel.1(x, y)
            svg += "</g>\n"
        }
        svg += "</svg>\n"
        return svg
    }

    private static func heading(_ report: BenchmarkReport) -> String {
        let machine = report.machine
        return "SyncGate dispatch benchmarks — \(report.quick ? "quick run" : "full run"), \(machine.processors) CPUs, "
            + "load \(machine.loadAverageAtStart.map { String(format: "%.2f", $0) }.joined(separator: " ")), "
            + "\(machine.date.prefix(10))"
    }

    // MARK: - Latency panels

    private static func latencyPanel(_ comparison: LatencyComparison, x: Double, y: Double) -> String {
        let plot = (x: x + left, y: y + top, width: panelWidth - left - right, height: panelHeight - top - bottom)
        let curves = [comparison.subjectCurve, comparison.baselineCurve]
        let maxNines = max(1, log10(Double(max(comparison.subjectLatency.count, comparison.baselineLatency.count, 10))))
        let values = curves.flatMap { $0.map { $0[1] / 1_000 } }.filter { $0 > 0 }
        let low = floor(log10(values.min() ?? 1))
        let high = max(low + 1, ceil(log10(values.max() ?? 10)))
        func px(_ fraction: Double) -> Double {
            let nines = fraction >= 1 ? maxNines : min(maxNines, -log10(1 - fraction))
            return plot.x + plot.width * nines / maxNines
        }
        func py(_ microseconds: Double) -> Double {
            let value = log10(max(microseconds, pow(10, low)))
            return plot.y + plot.height * (1 - (value - low) / (high - low))
        }
        var svg = frame(plot)
        for (nines, label) in [(0.0, "0"), (log10(2), "50"), (1, "90"), (2, "99"), (3, "99.9"), (4, "99.99")]
        where nines <= maxNines {
            let gx = plot.x + plot.width * nines / maxNines
            svg += line(gx, plot.y, gx, plot.y + plot.height, color: "#e4e4e4")
            svg += text(gx, plot.y + plot.height + 14, label, anchor: "middle")
        }
        svg += text(plot.x + plot.width / 2, plot.y + plot.height + 32, "percentile (%)", anchor: "middle")
        var decade = low
        while decade <= high {
            for step in [1.0, 2, 5] {
                let value = step * pow(10, decade)
                let gy = py(value)
                guard log10(value) <= high + 1e-9 else { continue }
                svg += line(plot.x, gy, plot.x + plot.width, gy, color: step == 1 ? "#d0d0d0" : "#eeeeee")
                svg += text(plot.x - 5, gy + 4, axisNumber(value), anchor: "end")
            }
            decade += 1
        }
        svg += text(x + 14, plot.y + plot.height / 2, "µs (log)", anchor: "middle", rotate: true)
        for (curve, color) in zip(curves, [subjectColor, baselineColor]) {
            let points = curve.map { "\(round2(px($0[0]))),\(round2(py($0[1] / 1_000)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.8\" points=\"\(points)\"/>\n"
        }
        let p50 =
            "p50 \(TableReport.format(comparison.ratio("p50"), 2))×, p99 \(TableReport.format(comparison.ratio("p99"), 2))×"
        svg += legend(
            plot, [(comparison.subject, subjectColor), (comparison.baseline, baselineColor), ("ratio " + p50, nil)])
        return svg
    }

    // MARK: - Release curves

    private static func curvePanel(_ curve: ReleaseCurve, x: Double, y: Double) -> String {
        let plot = (x: x + left, y: y + top, width: panelWidth - left - right, height: panelHeight - top - bottom)
        let maxTime = max(curve.points.last?[0] ?? 1, 1e-3)
        let timeStep = niceStep(maxTime / 5)
        let timeTop = (maxTime / timeStep).rounded(.up) * timeStep
        let countStep = niceStep(Double(curve.total) / 5)
        let countTop = max((Double(curve.total) / countStep).rounded(.up) * countStep, 1)
        func px(_ time: Double) -> Double { plot.x + plot.width * time / timeTop }
        func py(_ count: Double) -> Double { plot.y + plot.height * (1 - count / countTop) }
        var svg = frame(plot)
        var tick = 0.0
        while tick <= timeTop + timeStep / 2 {
            svg += line(px(tick), plot.y, px(tick), plot.y + plot.height, color: "#eeeeee")
            svg += text(px(tick), plot.y + plot.height + 14, axisNumber(tick), anchor: "middle")
            tick += timeStep
        }
        tick = 0
        while tick <= countTop + countStep / 2 {
            svg += line(plot.x, py(tick), plot.x + plot.width, py(tick), color: "#eeeeee")
            svg += text(plot.x - 5, py(tick) + 4, axisNumber(tick), anchor: "end")
            tick += countStep
        }
        svg += text(plot.x + plot.width / 2, plot.y + plot.height + 32, "ms after the change", anchor: "middle")
        svg += text(x + 14, plot.y + plot.height / 2, "started", anchor: "middle", rotate: true)
        let points = curve.points.map { "\(round2(px($0[0]))),\(round2(py($0[1])))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"\(subjectColor)\" stroke-width=\"1.8\" points=\"\(points)\"/>\n"
        let done = "all \(curve.total) after \(TableReport.format(maxTime, maxTime < 10 ? 2 : 1)) ms"
        svg += legend(plot, [(curve.name, subjectColor), (done, nil)], anchorRight: false)
        return svg
    }

    // MARK: - Drawing

    private static func frame(_ plot: (x: Double, y: Double, width: Double, height: Double)) -> String {
        "<rect x=\"\(round2(plot.x))\" y=\"\(round2(plot.y))\" width=\"\(round2(plot.width))\" "
            + "height=\"\(round2(plot.height))\" fill=\"none\" stroke=\"#999999\"/>\n"
    }

    private static func legend(
        _ plot: (x: Double, y: Double, width: Double, height: Double), _ entries: [(String, String?)],
        anchorRight: Bool = false
    ) -> String {
        var svg = ""
        let x = anchorRight ? plot.x + plot.width - 250 : plot.x + 10
        for (index, entry) in entries.enumerated() {
            let y = plot.y + 16 + Double(index) * 15
            if let color = entry.1 {
                svg += line(x, y - 4, x + 18, y - 4, color: color, width: 2.5)
            }
            svg += text(x + (entry.1 == nil ? 0 : 24), y, entry.0)
        }
        return svg
    }

    private static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String, width: Double = 1
    ) -> String {
        "<line x1=\"\(round2(x1))\" y1=\"\(round2(y1))\" x2=\"\(round2(x2))\" y2=\"\(round2(y2))\" "
            + "stroke=\"\(color)\" stroke-width=\"\(width)\"/>\n"
    }

    private static func text(
        _ x: Double, _ y: Double, _ content: String, anchor: String = "start", size: Int = 11,
        weight: String = "normal", rotate: Bool = false
    ) -> String {
        let transform = rotate ? " transform=\"rotate(-90 \(round2(x)) \(round2(y)))\"" : ""
        return "<text x=\"\(round2(x))\" y=\"\(round2(y))\" text-anchor=\"\(anchor)\" font-size=\"\(size)\" "
            + "font-weight=\"\(weight)\"\(transform)>\(escape(content))</text>\n"
    }

    private static func niceStep(_ rough: Double) -> Double {
        guard rough > 0 else { return 1 }
        let magnitude = pow(10, floor(log10(rough)))
        for multiple in [1.0, 2, 2.5, 5, 10] where multiple * magnitude >= rough {
            return multiple * magnitude
        }
        return 10 * magnitude
    }

    private static func axisNumber(_ value: Double) -> String {
        if value >= 1_000_000 {
            return TableReport.format(value / 1_000_000, value.truncatingRemainder(dividingBy: 1_000_000) == 0 ? 0 : 1)
                + "M"
        }
        if value >= 10_000 { return TableReport.format(value / 1_000, 0) + "k" }
        if value >= 1 || value == 0 { return TableReport.format(value, value == value.rounded() ? 0 : 1) }
        return TableReport.format(value, value >= 0.1 ? 1 : 2)
    }

    private static func round2(_ value: Double) -> String {
        TableReport.format(value, 1)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
