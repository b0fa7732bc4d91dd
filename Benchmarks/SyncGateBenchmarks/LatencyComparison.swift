import Foundation

/// One latency distribution beside its baseline, measured interleaved in the same run.
///
/// The ratios are given three ways: over all samples pooled; per round (the samples cut, in the order
/// taken, into ``rounds`` consecutive blocks), as the median and spread across rounds; and, where the
/// baseline ran in both regimes, against each regime of the baseline alone (hot: its first instruction
/// ran on the triggering thread; parked: another thread had to take it, usually a sleeping one woken).
/// A goal is met only when the median across rounds meets it and so does the ratio against every
/// regime of the baseline that holds at least ``RegimeComparison/minimumShare`` of its samples.
struct LatencyComparison: Codable, Sendable {
    /// A goal on the ratio at one percentile (docs/PERFORMANCE.md).
    struct RatioGoal: Codable, Sendable {
        /// The percentile label, such as `"p50"`.
        var percentile: String
        /// The largest acceptable ratio of subject to baseline.
        var atMost: Double
    }

    /// The ratio at one percentile across rounds.
    struct RoundSpread: Codable, Sendable {
        /// The percentile label, such as `"p50"`.
        var percentile: String
        /// Subject ÷ baseline in each round, in the order run.
        var perRound: [Double]
        /// The median of ``perRound``.
        var median: Double
        /// The smallest of ``perRound``.
        var low: Double
        /// The largest of ``perRound``.
        var high: Double
    }

    /// The subject (all samples) against the baseline's samples of one regime.
    struct RegimeComparison: Codable, Sendable {
        /// A regime is reported (and judged) when it holds at least this share of the baseline's samples.
        static let minimumShare = 0.02

        /// `"hot"` or `"parked"`.
        var regime: String
        /// The share of the baseline's samples in this regime.
        var baselineShare: Double
        /// The baseline's percentiles in this regime.
        var baselineLatency: LatencySummary
        /// Subject (all samples) ÷ baseline (this regime) at each of ``LatencySummary/labels``.
        var ratios: [Double]
    }

    /// What was measured.
    var subject: String
    /// What it is compared with.
    var baseline: String
    /// The subject's percentiles.
    var subjectLatency: LatencySummary
    /// The baseline's percentiles.
    var baselineLatency: LatencySummary
    /// Subject ÷ baseline at each of ``LatencySummary/labels``, all samples pooled.
    var ratios: [Double]
    /// How many rounds the samples were cut into.
    var rounds: Int
    /// The ratio's median and spread across rounds at p50, p99 and p99.9.
    var roundSpreads: [RoundSpread]
    /// The share of the subject's samples that ran hot, when known.
    var subjectHotShare: Double?
    /// The subject against each regime of the baseline, when the regimes are known.
    var regimes: [RegimeComparison]
    /// The goals on the ratios.
    var goals: [RatioGoal]
    /// Whether every goal is met in this run (median across rounds, and against every reported regime).
    var goalsMet: Bool
    /// `[fraction, nanoseconds]` points of the subject's distribution, for charts.
    var subjectCurve: [[Double]]
    /// `[fraction, nanoseconds]` points of the baseline's distribution, for charts.
    var baselineCurve: [[Double]]

    /// The percentiles reported per round.
    static let roundLabels = ["p50", "p99", "p99.9"]
    /// The default number of rounds.
    static let defaultRounds = 5

    /// Builds the comparison from two series of samples.
    ///
    /// Without `splitRegimes` the baseline's regimes are not split out nor judged: for a baseline that
    /// is the subject's own path under other conditions (scenario 2), where comparing one side's mix with
    /// a part of the other's says nothing.
    init(
        subject: String, series: SampleSeries, baseline: String, baselineSeries: SampleSeries,
        goals: [RatioGoal], rounds: Int = LatencyComparison.defaultRounds, splitRegimes: Bool = true
    ) {
        self.init(
            subject: subject, samples: series.nanoseconds, hot: series.hot, baseline: baseline,
            baselineSamples: baselineSeries.nanoseconds, baselineHot: splitRegimes ? baselineSeries.hot : nil,
            goals: goals, rounds: rounds)
    }

    /// Builds the comparison from raw samples in nanoseconds, in the order taken, with their regimes when known.
    init(
        subject: String, samples: [Double], hot: [Bool]? = nil, baseline: String, baselineSamples: [Double],
        baselineHot: [Bool]? = nil, goals: [RatioGoal], rounds: Int = LatencyComparison.defaultRounds
    ) {
        self.subject = subject
        self.baseline = baseline
        subjectLatency = LatencySummary(nanoseconds: samples)
        baselineLatency = LatencySummary(nanoseconds: baselineSamples)
        ratios = Self.ratios(subjectLatency, baselineLatency)
        let rounds = max(1, min(rounds, samples.count, baselineSamples.count))
        self.rounds = rounds
        roundSpreads = Self.spreads(samples, baselineSamples, rounds: rounds)
        subjectHotShare = hot.map { flags in flags.isEmpty ? 0 : Double(flags.filter { $0 }.count) / Double(flags.count)
        }
        var regimes: [RegimeComparison] = []
        if let baselineHot, baselineHot.count == baselineSamples.count, !baselineSamples.isEmpty {
            for regime in ["hot", "parked"] {
                let kept = zip(baselineSamples, baselineHot).filter { $0.1 == (regime == "hot") }.map(\.0)
                let share = Double(kept.count) / Double(baselineSamples.count)
                guard share >= RegimeComparison.minimumShare, share < 1 else { continue }
                let summary = LatencySummary(nanoseconds: kept)
                regimes.append(
                    RegimeComparison(
                        regime: regime, baselineShare: share, baselineLatency: summary,
                        ratios: Self.ratios(subjectLatency, summary)))
            }
        }
        self.regimes = regimes
        self.goals = goals
        let spreads = roundSpreads
        let pooled = ratios
        goalsMet = goals.allSatisfy { goal in
            let index = LatencySummary.labels.firstIndex(of: goal.percentile) ?? 0
            let median = spreads.first { $0.percentile == goal.percentile }?.median ?? pooled[index]
            return median <= goal.atMost && regimes.allSatisfy { $0.ratios[index] <= goal.atMost }
        }
        subjectCurve = Self.curve(samples)
        baselineCurve = Self.curve(baselineSamples)
    }

    /// The pooled ratio at a label such as `"p99"`.
    func ratio(_ label: String) -> Double {
        ratios[LatencySummary.labels.firstIndex(of: label) ?? 0]
    }

    /// The median ratio across rounds at a label such as `"p50"` (the pooled ratio for other labels).
    func medianRatio(_ label: String) -> Double {
        roundSpreads.first { $0.percentile == label }?.median ?? ratio(label)
    }

    private static func ratios(_ subject: LatencySummary, _ baseline: LatencySummary) -> [Double] {
        zip(subject.values, baseline.values).map { $1 > 0 ? $0 / $1 : 0 }
    }

    private static func spreads(_ samples: [Double], _ baselineSamples: [Double], rounds: Int) -> [RoundSpread] {
        func block(_ values: [Double], _ round: Int) -> [Double] {
            let size = values.count / rounds
            let end = round == rounds - 1 ? values.count : (round + 1) * size
            return Array(values[(round * size)..<end])
        }
        let perRound = (0..<rounds).map { round in
            ratios(
                LatencySummary(nanoseconds: block(samples, round)),
                LatencySummary(nanoseconds: block(baselineSamples, round)))
        }
        return roundLabels.map { label in
            let index = LatencySummary.labels.firstIndex(of: label) ?? 0
            let values = perRound.map { $0[index] }
            let sorted = values.sorted()
            let median =
                sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            return RoundSpread(
                percentile: label, perRound: values, median: median, low: sorted.first ?? 0, high: sorted.last ?? 0)
        }
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
