import Foundation

/// Renders a report as the readable table printed at the end of a run.
enum TableReport {
    /// The whole report as text.
    static func render(_ report: BenchmarkReport) -> String {
        var lines: [String] = []
        let machine = report.machine
        lines.append(
            "SyncGate benchmarks — \(report.quick ? "quick smoke run (timings not meaningful)" : "full run"), "
                + "\(machine.build) build, \(machine.processors) CPUs, Linux \(machine.kernel), \(machine.date)")
        lines.append(
            "load average at start \(loads(machine.loadAverageAtStart)), at end \(loads(machine.loadAverageAtEnd)); "
                + "latencies in µs; ratio = subject ÷ baseline at the same percentile")
        for result in report.scenarios {
            lines.append("")
            lines.append("[\(result.number)] \(result.title)  (\(result.name), \(format(result.seconds, 1)) s)")
            if let skipped = result.skipped {
                lines.append("    \(skipped)")
                continue
            }
            for comparison in result.latencies {
                lines += latencyLines(comparison)
            }
            for figure in result.figures {
                lines.append("    " + figureLine(figure))
            }
            for check in result.checks {
                lines.append("    ✓ " + check)
            }
            for note in result.notes {
                lines.append("    note: " + note)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func latencyLines(_ comparison: LatencyComparison) -> [String] {
        let width = 40
        func row(_ label: String, _ cells: [String]) -> String {
            "    " + label.padding(toLength: width, withPad: " ", startingAt: 0)
                + cells.map { String(repeating: " ", count: max(0, 9 - $0.count)) + $0 }.joined()
        }
        var lines = [
            row("n = \(comparison.subjectLatency.count) per side", LatencySummary.labels),
            row(comparison.subject, comparison.subjectLatency.values.map { microseconds($0) }),
            row(comparison.baseline, comparison.baselineLatency.values.map { microseconds($0) }),
            row("ratio", comparison.ratios.map { format($0, 2) + "×" }),
        ]
        let spreads = comparison.roundSpreads.map { spread in
            "\(spread.percentile) \(format(spread.median, 2))× [\(format(spread.low, 2))–\(format(spread.high, 2))]"
        }
        let perRound = comparison.subjectLatency.count / max(comparison.rounds, 1)
        lines.append(
            "    ratio across \(comparison.rounds) rounds of ~\(perRound), median [min–max]: "
                + spreads.joined(separator: ", "))
        if let share = comparison.subjectHotShare {
            lines.append("    subject ran on the triggering thread (hot) in \(format(100 * share, 1)) % of samples")
        }
        for regime in comparison.regimes {
            let baseline = ["p50", "p99"].map { "\($0) \(microseconds(regime.baselineLatency.value($0))) µs" }
            let ratios = ["p50", "p99"].map { label in
                "\(label) \(format(regime.ratios[LatencySummary.labels.firstIndex(of: label) ?? 0], 2))×"
            }
            lines.append(
                "    baseline \(regime.regime) (\(format(100 * regime.baselineShare, 1)) % of its samples): "
                    + baseline.joined(separator: ", ") + "; subject ÷ it: " + ratios.joined(separator: ", "))
        }
        if !comparison.goals.isEmpty {
            let goals = comparison.goals.map { "\($0.percentile) ≤ \(format($0.atMost, 1))×" }.joined(separator: ", ")
            var actual = comparison.goals.map {
                "\($0.percentile) \(format(comparison.medianRatio($0.percentile), 2))×"
            }
            for regime in comparison.regimes {
                actual += comparison.goals.map { goal in
                    let index = LatencySummary.labels.firstIndex(of: goal.percentile) ?? 0
                    return "\(goal.percentile) vs \(regime.regime) \(format(regime.ratios[index], 2))×"
                }
            }
            lines.append(
                "    goal \(goals) (median of rounds, and against each regime of the baseline): "
                    + "\(comparison.goalsMet ? "met" : "NOT MET") (\(actual.joined(separator: ", ")))")
        }
        return lines
    }

    private static func figureLine(_ figure: Figure) -> String {
        var line = "\(figure.name): \(quantity(figure.value, figure.unit))"
        if let baseline = figure.baseline, let name = figure.baselineName, let ratio = figure.ratio {
            line += "  vs \(name): \(quantity(baseline, figure.unit))  = \(format(ratio, 2))×"
        }
        if let goal = figure.goal, let met = figure.goalMet {
            line += "  — goal \(goal): \(met ? "met" : "NOT MET")"
        }
        return line
    }

    /// A value with its unit, with thousands grouped for large counts.
    static func quantity(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "jobs/s": return grouped(value.rounded()) + " " + unit
        case "bytes": return grouped(value.rounded()) + " " + unit
        case "ms": return format(value, value < 10 ? 2 : 1) + " ms"
        default: return format(value, value == value.rounded() ? 0 : 2) + " " + unit
        }
    }

    /// Nanoseconds shown as microseconds with a precision that suits their size.
    static func microseconds(_ nanoseconds: Double) -> String {
        let value = nanoseconds / 1_000
        return format(value, value < 10 ? 2 : value < 1_000 ? 1 : 0)
    }

    static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    private static func grouped(_ value: Double) -> String {
        let digits = String(Int(value))
        var result = ""
        for (offset, character) in digits.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 && character != "-" { result.append(" ") }
            result.append(character)
        }
        return String(result.reversed())
    }

    private static func loads(_ values: [Double]) -> String {
        values.map { format($0, 2) }.joined(separator: " ")
    }
}
