/// Everything one scenario measured and checked.
struct ScenarioResult: Codable, Sendable {
    /// The name given to `--scenario`.
    var name: String
    /// The number in the list.
    var number: Int
    /// A one-line title.
    var title: String
    /// Exactly what is timed: where the clock starts and where it stops.
    var measures: String
    /// The latency distributions beside their baselines.
    var latencies: [LatencyComparison] = []
    /// The scalar results.
    var figures: [Figure] = []
    /// Release curves.
    var curves: [ReleaseCurve] = []
    /// What the scenario verified about its own work.
    var checks: [String] = []
    /// Anything else worth knowing about the numbers.
    var notes: [String] = []
    /// Why the scenario did not run, when it did not.
    var skipped: String?
    /// The scenario's wall time, setup included, in seconds.
    var seconds: Double = 0

    /// Creates an empty result.
    init(name: String, number: Int, title: String, measures: String) {
        self.name = name
        self.number = number
        self.title = title
        self.measures = measures
    }
}
