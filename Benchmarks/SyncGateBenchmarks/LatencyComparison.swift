import Foundation

/// One latency distribution beside its baseline, measured interleaved in the same run.
struct LatencyComparison: Codable, Sendable {
    /// A goal on the ratio at one percentile (README.md, "Performance").
    struct RatioGoal: Codable, Sendable {
        /// The percentile label, such as `"p50"`.
        var percentile: String
        /// The largest acceptable ratio of subject to baseline.
        var atMost: Double
    }

    /// What was measured.
    var subject: String
    /// What it is compared with.
    var baseline: String
    /// The subject's percentiles.
    var subjectLatency: LatencySummary
    /// The baseline's percentiles.
    var baselineLatency: LatencySummary
    /// Subject ÷ baseline at each of ``LatencySummary/labels``.
    var ratios: [Double]
    /// The goals on the ratios.
    var goals: [RatioGoal]
    /// Whether every goal is met in this run.
    var goalsMet: Bool
    /// `[fraction, nanoseconds]` points of the subject's distribution, for charts.
    var subjectCurve: [[Double]]
    /// `[fraction, nanoseconds]` points of the baseline's distribution, for charts.
    var baselineCurve: [[Double]]

    /// Builds the comparison from raw samples in nanoseconds.
    init(subject: String, samples: [Double], baseline: String, baselineSamples: [Double], goals: [RatioGoal]) {
        self.subject = subject
        self.baseline = baseline
        subjectLatency = LatencySummary(nanoseconds: samples)
        baselineLatency = LatencySummary(nanoseconds: baselineSamples)
        ratios = zip(subjectLatency.values, baselineLatency.values).map { $1 > 0 ? $0 / $1 : 0 }
        self.goals = goals
        let ratios = self.ratios
        goalsMet = goals.allSatisfy { goal in
            ratios[LatencySummary.labels.firstIndex(of: goal.percentile) ?? 0] <= goal.atMost
        }
        subjectCurve = Self.curve(samples)
        baselineCurve = Self.curve(baselineSamples)
    }

    /// The ratio at a label such as `"p99"`.
    func ratio(_ label: String) -> Double {
        ratios[LatencySummary.labels.firstIndex(of: label) ?? 0]
    }

    /// Points spread evenly on the "nines" scale (`-log10(1 - fraction)`), ending with the maximum.
    private static func curve(_ samples: [Double]) -> [[Double]] {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return [] }
        let top = log10(Double(sorted.count))
        var points: [[Double]] = []
        var nines = 0.0
        while nines < top {
            let fraction = 1 - pow(10, -nines)
            points.append([fraction, LatencySummary.percentile(fraction, ofSorted: sorted)])
            nines += 0.02
        }
        points.append([1, sorted[sorted.count - 1]])
        return points
    }
}
